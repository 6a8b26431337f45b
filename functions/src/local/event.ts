import type { APIGatewayProxyEvent } from 'aws-lambda';
import { randomUUID } from 'node:crypto';

export interface RequestShape {
  method: string;
  /** The path as requested, without the query string. */
  path: string;
  /** The route's resource path, e.g. `/transcriptions/{id}`. */
  routePath: string;
  pathParameters: Record<string, string>;
  rawQueryString: string;
  /** Sent as given: API Gateway's REST API keeps each header name's case (the wrapper lower-cases them). */
  headers: Record<string, string>;
  body: Buffer | string | undefined;
  sourceIp: string;
}

/** The REST API's stage name in the local events (the deployed one is `API_STAGE_NAME` of infra/lib/api.ts). */
const LOCAL_STAGE = 'local';

/**
 * Builds the event Lambda receives from an API Gateway REST API Lambda proxy integration
 * (payload 1.0). The stack sets no binary media types, so API Gateway passes every body as text
 * (`isBase64Encoded` false), as here. A repeated query parameter is in
 * `multiValueQueryStringParameters` with every value, and in `queryStringParameters` with its last.
 */
export function toEvent(req: RequestShape): APIGatewayProxyEvent {
  const headers: Record<string, string> = { ...req.headers };
  const multiValueHeaders = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]]));
  const query: Record<string, string> = {};
  const multiQuery: Record<string, string[]> = {};
  for (const [k, v] of new URLSearchParams(req.rawQueryString)) {
    query[k] = v;
    (multiQuery[k] ??= []).push(v);
  }
  const body = req.body !== undefined && req.body.length > 0 ? (typeof req.body === 'string' ? req.body : req.body.toString('utf8')) : null;
  const header = (name: string) => Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
  const now = Date.now();
  const hasQuery = Object.keys(query).length > 0;
  const hasParams = Object.keys(req.pathParameters).length > 0;
  return {
    resource: req.routePath,
    path: req.path,
    httpMethod: req.method,
    headers,
    multiValueHeaders,
    queryStringParameters: hasQuery ? query : null,
    multiValueQueryStringParameters: hasQuery ? multiQuery : null,
    pathParameters: hasParams ? req.pathParameters : null,
    stageVariables: null,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      authorizer: null,
      domainName: header('host') ?? 'localhost',
      domainPrefix: 'localhost',
      httpMethod: req.method,
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: req.sourceIp,
        user: null,
        userAgent: header('user-agent') ?? null,
        userArn: null,
      },
      path: `/${LOCAL_STAGE}${req.path}`,
      protocol: 'HTTP/1.1',
      requestId: randomUUID(),
      requestTimeEpoch: now,
      resourceId: 'local',
      resourcePath: req.routePath,
      stage: LOCAL_STAGE,
    },
    body,
    isBase64Encoded: false,
  };
}
