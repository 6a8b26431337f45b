import { createReadStream, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ORIGIN_SECRET_HEADER } from '@app/shared/constants';
import { isApiPath, matchPath, routes, type RouteDef } from '@app/shared/routes';
import { apiViewerRequestCode, edgeFunction, edgeQueryString, type EdgeValue } from '../../../infra/lib/edge-functions.ts';
import { buildCsp, inlineScriptHashes, securityHeaders, type CspOptions } from '../../../infra/lib/security-headers.ts';
import type { LambdaHandler, Result } from '../lib/http.ts';
import { toEvent } from './event.ts';

/** Extra local-only pages (e.g. the checkout simulator), tried before the route table. */
export type LocalPage = (req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer) => Promise<boolean>;

export interface LocalServerOptions {
  port: number;
  /** The built SPA (web/dist); index.html is served for paths without a file extension. */
  webDist: string;
  localPages?: LocalPage[];
  /** The address to listen on: this machine only (127.0.0.1) unless told otherwise (0.0.0.0: every network). */
  host?: string;
  /** The route handler of a route-table entry; by default the TypeScript module under handlers/. */
  loadHandler?: (def: RouteDef) => Promise<LambdaHandler>;
  /** Third-party origins of the Content-Security-Policy (the inline-script hashes come from webDist). */
  csp?: Omit<CspOptions, 'scriptHashes'>;
  /** What CloudFront sends in ORIGIN_SECRET_HEADER on every API request, when the functions check it (the bundles pass). */
  originSecret?: string;
}

const MAX_BODY = 10 * 1024 * 1024;
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

const handlerCache = new Map<string, Promise<LambdaHandler>>();
function loadSourceHandler(def: RouteDef): Promise<LambdaHandler> {
  let h = handlerCache.get(def.handler);
  if (!h) {
    h = import(/* @vite-ignore */ new URL(`../handlers/${def.handler}.ts`, import.meta.url).href).then((m: { handler: LambdaHandler }) => m.handler);
    handlerCache.set(def.handler, h);
  }
  return h;
}

/**
 * What one route served since the start: every request, those that reached its handler (not
 * answered from the cache), and the handler's wall time over them (what Lambda bills, ms).
 */
export interface RouteCalls {
  requests: number;
  handlerCalls: number;
  handlerMs: number;
}

export interface LocalServer extends Server {
  /** The routes served since the start, by route key (`POST /api/auth/login`); a route never called has no entry. */
  routeCalls: ReadonlyMap<string, Readonly<RouteCalls>>;
}

/**
 * As CloudFront does for a route with `cache` in the table: one answer per path and listed query
 * parameters, kept `seconds` from when it arrived; requests for a key being fetched wait for that
 * fetch (request collapsing), however long the handler holds it. Server errors and answers
 * marked `Cache-Control: no-store` go to the requests waiting for them but are not kept (as
 * CloudFront does with a minimum TTL of 0).
 */
export function responseCache() {
  const entries = new Map<string, { until: number; result: Promise<Result> }>();
  return (def: RouteDef, url: URL, fetch: () => Promise<Result>): Promise<Result> => {
    if (!def.cache) return fetch();
    const now = Date.now();
    const key = `${url.pathname}?${def.cache.query.map((q) => `${q}=${url.searchParams.get(q) ?? ''}`).join('&')}`;
    const hit = entries.get(key);
    if (hit && hit.until > now) return hit.result.then((r) => ({ ...r, headers: { ...r.headers, 'x-cache': 'Hit from local cache' } }));
    if (entries.size > 10_000) for (const [k, e] of entries) if (e.until <= now) entries.delete(k);
    const entry = { until: Infinity, result: fetch() };
    entries.set(key, entry);
    entry.result.then(
      (r) => {
        if ((r.statusCode ?? 200) >= 500 || /no-store/.test(String(r.headers?.['cache-control'] ?? ''))) entries.delete(key);
        else entry.until = Date.now() + def.cache!.seconds * 1000;
      },
      () => entries.delete(key),
    );
    return entry.result;
  };
}

type Found = { def: RouteDef; params: Record<string, string> } | 'method' | undefined;
/** The last paths found (a crowd asks for the same few again and again), at most FOUND_MAX: emptied when full. */
const foundPaths = new Map<string, Found>();
const FOUND_MAX = 1_000;

/** Finds the route-table entry for a request: the route, 405 (path known, method not), or none. */
export function findRoute(method: string, path: string): Found {
  const key = `${method} ${path}`;
  if (foundPaths.has(key)) return foundPaths.get(key);
  if (foundPaths.size >= FOUND_MAX) foundPaths.clear();
  const found = matchRoute(method, path);
  foundPaths.set(key, found);
  return found;
}

function matchRoute(method: string, path: string): Found {
  let pathMatched = false;
  let best: { def: RouteDef; params: Record<string, string> } | undefined;
  for (const def of Object.values(routes) as RouteDef[]) {
    const params = matchPath(def.path, path);
    if (!params) continue;
    pathMatched = true;
    // As API Gateway does, a static segment wins over a {parameter}.
    if (def.method === method && (!best || Object.keys(params).length < Object.keys(best.params).length)) best = { def, params };
  }
  return best ?? (pathMatched ? 'method' : undefined);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('too large'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolveBody(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, result: Result) {
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(result.headers ?? {})) headers[k] = String(v);
  // As API Gateway does: a name in both takes every value, the single one first.
  for (const [k, vs] of Object.entries(result.multiValueHeaders ?? {})) headers[k] = [...(k in headers ? [String(headers[k])] : []), ...vs.map(String)];
  res.writeHead(result.statusCode ?? 200, headers);
  const body = result.body ?? '';
  res.end(result.isBase64Encoded ? Buffer.from(body, 'base64') : body);
}

const jsonError = (status: number, error: string): Result => ({
  statusCode: status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify({ error }),
});

/**
 * As CloudFront does on the API paths: runs the path's viewer-request function (the same
 * CloudFront Function source, infra/lib/edge-functions.ts) on the request, which either answers
 * itself (a refused live view offset) or passes the request on with the headers it set (the
 * visitor's address `ip`). Undefined on the SPA's paths. The live benchmark's simulated CloudFront
 * locations run it too, on their viewers' requests.
 */
export function viewerRequest(
  req: Pick<IncomingMessage, 'method' | 'headers'>,
  ip: string,
  url: URL,
): { response: Result } | { headers: Record<string, string> } | undefined {
  const code = apiViewerRequestCode(url.pathname);
  if (!code) return undefined;
  const headers: Record<string, EdgeValue> = {};
  // As CloudFront Functions: the cookies apart from the headers, by name.
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && k !== 'cookie') headers[k] = { value: Array.isArray(v) ? v.join(',') : v };
  const out = edgeFunction(code)({
    version: '1.0',
    context: { eventType: 'viewer-request' },
    viewer: { ip },
    request: { method: req.method ?? 'GET', uri: url.pathname, querystring: edgeQueryString(url.search.slice(1)), headers, cookies: edgeCookies(req.headers.cookie) },
  });
  const values = (from: Record<string, EdgeValue> = {}) => Object.fromEntries(Object.entries(from).map(([k, v]) => [k, v.value]));
  if ('statusCode' in out) {
    const body = typeof out.body === 'string' ? { encoding: 'text', data: out.body } : out.body;
    return { response: { statusCode: out.statusCode, headers: values(out.headers), body: body?.data ?? '', isBase64Encoded: body?.encoding === 'base64' } };
  }
  // The API behaviours' origin request policy forwards every viewer cookie to the origin, in one Cookie header.
  const cookie = Object.entries(out.cookies)
    .flatMap(([name, v]) => (v.multiValue ?? [v]).map((one) => `${name}=${one.value}`))
    .join('; ');
  return { headers: { ...values(out.headers), ...(cookie ? { cookie } : {}) } };
}

/** A Cookie header as CloudFront Functions' `request.cookies`: by name, a repeated name as `multiValue`. */
export function edgeCookies(header: string | undefined): Record<string, EdgeValue> {
  const out: Record<string, EdgeValue> = {};
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    const had = out[name];
    out[name] = had ? { value: had.value, multiValue: [...(had.multiValue ?? [{ value: had.value }]), { value }] } : { value };
  }
  return out;
}

/** Text files are sent gzipped when the client accepts it, as CloudFront does in production. */
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.webmanifest', '.svg', '.txt', '.map']);
const gzipCache = new Map<string, { mtimeMs: number; size: number; body: Buffer }>();

async function gzipped(file: string, info: { mtimeMs: number; size: number }): Promise<Buffer> {
  const hit = gzipCache.get(file);
  if (hit && hit.mtimeMs === info.mtimeMs && hit.size === info.size) return hit.body;
  const body = gzipSync(await readFile(file));
  gzipCache.set(file, { mtimeMs: info.mtimeMs, size: info.size, body });
  return body;
}

const acceptsGzip = (acceptEncoding: string | undefined) =>
  (acceptEncoding ?? '').split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    return coding === 'gzip' && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p));
  });

/**
 * CloudFront's security headers, with the CSP allowing the inline scripts of the index.html being
 * served by hash (recomputed when the file changes, e.g. after a rebuild).
 */
function headersFor(webDist: string, csp: Omit<CspOptions, 'scriptHashes'> = {}): () => Promise<Record<string, string>> {
  const index = join(resolve(webDist), 'index.html');
  let cached: { mtimeMs: number; headers: Record<string, string> } | undefined;
  return async () => {
    // A rebuilt page's inline scripts are allowed from the next request on. One stat a request, in
    // this thread: a few microseconds, where the thread pool's round trip cost a crowd of viewers more.
    const info = statSync(index, { throwIfNoEntry: false });
    const mtimeMs = info?.mtimeMs ?? 0;
    if (cached?.mtimeMs !== mtimeMs) {
      const html = info ? await readFile(index, 'utf8') : '';
      cached = { mtimeMs, headers: securityHeaders(buildCsp({ ...csp, scriptHashes: inlineScriptHashes(html) })) };
    }
    return cached.headers;
  };
}

async function serveStatic(res: ServerResponse, webDist: string, path: string, method: string, acceptEncoding?: string) {
  const root = resolve(webDist);
  let file = normalize(join(root, decodeURIComponent(path)));
  if (!file.startsWith(root)) return send(res, jsonError(400, 'Bad path'));
  let info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) {
    if (extname(path)) return send(res, { statusCode: 404, headers: { 'content-type': 'text/plain' }, body: 'Not found' });
    file = join(root, 'index.html');
    info = await stat(file).catch(() => undefined);
    if (!info) return send(res, { statusCode: 503, headers: { 'content-type': 'text/plain' }, body: 'The web app is not built: run npm run build' });
  }
  const immutable = file.includes(`${join(root, 'assets')}`);
  const headers: Record<string, string | number> = {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': info.size,
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    'x-content-type-options': 'nosniff',
  };
  if (COMPRESSIBLE.has(extname(file))) {
    headers.vary = 'accept-encoding';
    if (acceptsGzip(acceptEncoding)) {
      const body = await gzipped(file, info);
      res.writeHead(200, { ...headers, 'content-encoding': 'gzip', 'content-length': body.length });
      return res.end(method === 'HEAD' ? undefined : body);
    }
  }
  res.writeHead(200, headers);
  if (method === 'HEAD') return res.end();
  createReadStream(file).pipe(res);
}

/**
 * Whether a request already went through a CloudFront location: it carries CloudFront's `Via`
 * (`1.1 <id>.cloudfront.net (CloudFront)`), as the live benchmark's simulated locations send it.
 * Such a request is the origin's: the location ran the viewer-request function and did the
 * caching and collapsing, so here it goes straight to the handler with the headers it carries.
 */
export const CLOUDFRONT_VIA = /\(CloudFront\)\s*$/;
const fromCloudFront = (req: IncomingMessage) => CLOUDFRONT_VIA.test(String(req.headers.via ?? ''));

/** Connections waiting to be accepted (the kernel caps it at net.core.somaxconn; Node's default is 511). */
const ACCEPT_QUEUE = 65_535;

/** How long the local server keeps an idle connection open for its client to reuse. */
const IDLE_CONNECTION_MS = 10 * 60_000;

/**
 * The local server: the SPA and every route of the route table on one port, calling the
 * handlers Lambda runs with API Gateway REST API (payload 1.0) events, and sending CloudFront's security
 * headers. Local pages (the checkout simulator) stand in for third-party sites and get none.
 */
export function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const loadHandler = options.loadHandler ?? loadSourceHandler;
  const productionHeaders = headersFor(options.webDist, options.csp);
  const routeCalls = new Map<string, RouteCalls>();
  const cached = responseCache();
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const method = (req.method ?? 'GET').toUpperCase();
      let body: Buffer;
      try {
        body = await readBody(req);
      } catch {
        return send(res, jsonError(413, 'Request body is too large'));
      }
      for (const page of options.localPages ?? []) if (await page(req, res, url, body)) return;
      for (const [name, value] of Object.entries(await productionHeaders())) res.setHeader(name, value);
      const viaCloudFront = fromCloudFront(req);
      const edge = viaCloudFront
        ? { headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : (v ?? '')])) }
        : viewerRequest(req, req.socket.remoteAddress ?? '127.0.0.1', url);
      if (edge && 'response' in edge) return send(res, edge.response);
      const found = findRoute(method, url.pathname);
      if (found === 'method') return send(res, jsonError(405, 'Method not allowed'));
      if (found) {
        const handler = await loadHandler(found.def);
        // Every route path is an API path, so CloudFront's viewer-request function set the headers (the visitor's address).
        const headers = { ...(edge?.headers ?? {}) };
        // CloudFront's origin header, when the functions check it (the bundles pass).
        if (options.originSecret) headers[ORIGIN_SECRET_HEADER] = options.originSecret;
        const routeKey = `${found.def.method} ${found.def.path}`;
        const calls = routeCalls.get(routeKey) ?? { requests: 0, handlerCalls: 0, handlerMs: 0 };
        routeCalls.set(routeKey, calls);
        calls.requests++;
        const event = toEvent({
          method,
          path: url.pathname,
          routePath: found.def.path,
          pathParameters: { ...found.params },
          rawQueryString: url.search.slice(1),
          headers,
          body,
          sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        });
        const call = () => {
          calls.handlerCalls++;
          const started = performance.now();
          return handler(event).finally(() => (calls.handlerMs += performance.now() - started));
        };
        const result = await (viaCloudFront ? call() : cached(found.def, url, call));
        return send(res, result);
      }
      // The API's paths, as CloudFront forwards them (apiPathPatterns): an unknown route there is the API's 404.
      if (isApiPath(url.pathname)) return send(res, jsonError(404, 'Not found'));
      if (method !== 'GET' && method !== 'HEAD') return send(res, jsonError(405, 'Method not allowed'));
      await serveStatic(res, options.webDist, url.pathname, method, req.headers['accept-encoding']);
    } catch (err) {
      console.error(err);
      if (!res.headersSent) send(res, jsonError(500, 'Something went wrong on our side. Please try again.'));
      else res.end();
    }
  });
  // Clients keep idle connections to reuse them (Playwright's API client, Node's fetch, browsers):
  // a server that closes one after Node's 5 s default races a request sent on it at that moment
  // (ECONNRESET). Idle connections stay open for ten minutes instead, longer than any test leaves one.
  server.keepAliveTimeout = IDLE_CONNECTION_MS;
  return new Promise((resolveServer, reject) => {
    server.once('error', reject);
    // A crowd connecting at once (the live benchmark's 10,000 viewers) queues in the kernel: the longest accept queue it allows.
    server.listen({ port: options.port, host: options.host ?? '127.0.0.1', backlog: ACCEPT_QUEUE }, () => resolveServer(Object.assign(server, { routeCalls })));
  });
}
