import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { randomUUID } from 'node:crypto';

export interface RequestShape {
  method: string;
  /** The path as requested, without the query string. */
  path: string;
  /** The route key path, e.g. `/transcriptions/{id}`. */
  routePath: string;
  pathParameters: Record<string, string>;
  rawQueryString: string;
  headers: Record<string, string>;
  body: Buffer | string | undefined;
  sourceIp: string;
}

const TEXT_TYPES = /^(application\/(json|x-www-form-urlencoded|xml)|text\/)/i;

/** Builds the API Gateway HTTP API (payload 2.0) event that Lambda would receive. */
export function toEventV2(req: RequestShape): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) headers[k.toLowerCase()] = v;
  const query: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(req.rawQueryString)) query[k] = k in query ? `${query[k]},${v}` : v;
  let body: string | undefined;
  let isBase64Encoded = false;
  if (req.body !== undefined && req.body.length > 0) {
    const buf = typeof req.body === 'string' ? Buffer.from(req.body) : req.body;
    if (TEXT_TYPES.test(headers['content-type'] ?? '')) body = buf.toString('utf8');
    else {
      body = buf.toString('base64');
      isBase64Encoded = true;
    }
  }
  const now = Date.now();
  return {
    version: '2.0',
    routeKey: `${req.method} ${req.routePath}`,
    rawPath: req.path,
    rawQueryString: req.rawQueryString,
    cookies: headers.cookie ? headers.cookie.split(/;\s*/) : undefined,
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(req.pathParameters).length ? req.pathParameters : undefined,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: req.method,
        path: req.path,
        protocol: 'HTTP/1.1',
        sourceIp: req.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: `${req.method} ${req.routePath}`,
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
    },
    body,
    isBase64Encoded,
  };
}
