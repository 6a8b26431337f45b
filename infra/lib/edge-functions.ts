import { apiPathPatterns, pathPatternMatches, routes, type RouteDef, type RouteName } from '@app/shared/routes';
import { LIVE_OFFSET_MESSAGE, LIVE_OFFSET_PATTERN } from '@app/shared/schemas/live';

/**
 * The CloudFront Functions (cloudfront-js-2.0 sources) of the distribution and which one runs on
 * which path. CloudFront runs them (web.ts) and so does the local server (functions/src/local),
 * from these same sources, so both refuse and forward the same requests. This module imports no
 * CDK: the local server loads it.
 */

/**
 * SPA fallback on the default (S3) behaviour only: a path whose last segment has no file
 * extension is a client-side route and gets /index.html. API paths never reach this function,
 * so an API 404 stays an API 404 (unlike distribution-wide error responses).
 */
export const SPA_REWRITE_CODE = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  if (uri.lastIndexOf('.') <= uri.lastIndexOf('/')) request.uri = '/index.html';
  return request;
}`;

/**
 * On the API paths: pass the visitor's address to the handlers (`x-viewer-address`,
 * overwriting anything the client sent), since API Gateway only sees CloudFront's.
 */
export const VIEWER_ADDRESS_CODE = `function handler(event) {
  event.request.headers['x-viewer-address'] = { value: event.viewer.ip };
  return event.request;
}`;

/** The edge's answer to a live view request whose `after` is not one canonical offset. */
export const LIVE_OFFSET_REFUSAL = { error: LIVE_OFFSET_MESSAGE, code: 'invalid_input' } as const;

/**
 * On the cached live view: only canonical offsets reach the origin, so every cache key is one
 * offset's only spelling (a viewer cannot make misses with `00`, `+0`, `0x0`, `1e3`...). `after`
 * must be absent or a single LIVE_OFFSET_PATTERN value as the viewer sent it (CloudFront gives
 * the function the query string undecoded, so `%30` is refused too, and a repeated parameter as
 * `multiValue`); a parameter spelled otherwise that the origin would decode to `after`
 * (`%61fter`) is refused as well, as it would reach the handler under a cache key without
 * `after`. Anything else gets a 400 JSON answer from the edge, never reaching the origin; the
 * rest is VIEWER_ADDRESS_CODE's work (a behaviour has one viewer-request function).
 */
export const LIVE_VIEW_REQUEST_CODE = `var OFFSET = ${LIVE_OFFSET_PATTERN.toString()};
var REFUSAL = ${JSON.stringify(JSON.stringify(LIVE_OFFSET_REFUSAL))};
function decoded(name) {
  try {
    return decodeURIComponent(name);
  } catch (e) {
    return name;
  }
}
function handler(event) {
  var request = event.request;
  var query = request.querystring;
  for (var name in query) {
    var param = query[name];
    var after = name === 'after';
    if (!after && decoded(name) !== 'after') continue;
    if (!after || (param.multiValue && param.multiValue.length > 1) || !OFFSET.test(param.value)) {
      return {
        statusCode: 400,
        statusDescription: 'Bad Request',
        headers: { 'content-type': { value: 'application/json; charset=utf-8' }, 'cache-control': { value: 'no-store' } },
        body: { encoding: 'text', data: REFUSAL },
      };
    }
  }
  request.headers['x-viewer-address'] = { value: event.viewer.ip };
  return request;
}`;

/** The viewer-request function of a cached route's behaviour: its own check where it has one, else the viewer address. */
const CACHED_VIEWER_REQUEST: Partial<Record<RouteName, string>> = { viewLiveShare: LIVE_VIEW_REQUEST_CODE };
export const cachedViewerRequestCode = (name: string): string => CACHED_VIEWER_REQUEST[name as RouteName] ?? VIEWER_ADDRESS_CODE;

/**
 * The API routes the route table marks `cache` (the live caption view, the same for every
 * viewer): CloudFront keeps each answer `cache.seconds`, keyed by the path and only the listed
 * query parameters, under the pattern of the route's path (each `{parameter}` as `*`). Other
 * routes whose paths fall under that pattern (the owner's viewer count) keep the uncached API
 * behaviour under patterns listed before it, as CloudFront takes the first pattern that matches.
 * Other methods on a cached path (stopping a share) are never cached: CloudFront caches GET and
 * HEAD only.
 */
export function cachedApiBehaviors(table: Readonly<Record<string, RouteDef>> = routes) {
  const all = Object.entries(table);
  const pattern = (path: string) => path.replace(/\{[^}]+\}/g, '*');
  const cached = all.filter(([, r]) => r.method === 'GET' && r.cache).map(([name, r]) => ({ name, pattern: pattern(r.path), cache: r.cache! }));
  const uncached = [
    ...new Set(
      all
        .filter(([, r]) => cached.some((c) => pathPatternMatches(c.pattern, r.path) && pattern(r.path) !== c.pattern))
        .map(([, r]) => pattern(r.path)),
    ),
  ];
  return { cached, uncached };
}

/**
 * The API behaviours in CloudFront's order (it takes the first pattern that matches), each with
 * its viewer-request function: the uncached patterns under a cached one, the cached ones, then
 * the route table's path patterns. Every other path is the SPA's (SPA_REWRITE_CODE).
 */
export function apiViewerRequests(table: Readonly<Record<string, RouteDef>> = routes): { pattern: string; code: string }[] {
  const { cached, uncached } = cachedApiBehaviors(table);
  return [
    ...uncached.map((pattern) => ({ pattern, code: VIEWER_ADDRESS_CODE })),
    ...cached.map(({ name, pattern }) => ({ pattern, code: cachedViewerRequestCode(name) })),
    ...apiPathPatterns(table).map((pattern) => ({ pattern, code: VIEWER_ADDRESS_CODE })),
  ];
}

/** The viewer-request function CloudFront runs on an API path; undefined for the SPA's paths. */
export function apiViewerRequestCode(path: string, table: Readonly<Record<string, RouteDef>> = routes): string | undefined {
  let behaviours = viewerRequestsOf.get(table);
  if (!behaviours) viewerRequestsOf.set(table, (behaviours = apiViewerRequests(table)));
  return behaviours.find((b) => pathPatternMatches(b.pattern, path))?.code;
}
const viewerRequestsOf = new WeakMap<object, { pattern: string; code: string }[]>();

/** A value of CloudFront Functions' event: `{value}`, and `multiValue` when the name is repeated. */
export interface EdgeValue {
  value: string;
  multiValue?: { value: string }[];
}
/** The viewer-request event of CloudFront Functions (the fields these functions read). */
export interface ViewerRequestEvent {
  version: '1.0';
  context: { eventType: 'viewer-request' };
  viewer: { ip: string };
  request: { method: string; uri: string; querystring: Record<string, EdgeValue>; headers: Record<string, EdgeValue>; cookies: Record<string, EdgeValue> };
}
/** What a viewer-request function returns: the request to forward, or a response (with `statusCode`) the edge sends itself. */
export type ViewerRequestResult =
  | ViewerRequestEvent['request']
  | { statusCode: number; statusDescription?: string; headers?: Record<string, EdgeValue>; body?: string | { encoding: 'text' | 'base64'; data: string } };

const compiled = new Map<string, (event: ViewerRequestEvent) => ViewerRequestResult>();
/** A CloudFront Function source as a callable, as the runtime calls it: its top-level `handler(event)`. */
export function edgeFunction(code: string): (event: ViewerRequestEvent) => ViewerRequestResult {
  let fn = compiled.get(code);
  if (!fn) {
    fn = new Function(`${code}\nreturn handler;`)() as (event: ViewerRequestEvent) => ViewerRequestResult;
    compiled.set(code, fn);
  }
  return fn;
}

/** The values of a raw query string as CloudFront Functions sees them: names and values undecoded, a repeated name as `multiValue`. */
export function edgeQueryString(rawQuery: string): Record<string, EdgeValue> {
  const out: Record<string, EdgeValue> = {};
  for (const part of rawQuery.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? '' : part.slice(eq + 1);
    const had = out[name];
    if (!had) out[name] = { value };
    else out[name] = { value: had.value, multiValue: [...(had.multiValue ?? [{ value: had.value }]), { value }] };
  }
  return out;
}
