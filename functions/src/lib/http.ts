import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import * as z from 'zod';
import { closedDuringMaintenance, routes, routeSecrets, writesData, type RouteDef, type RouteName, type Routes } from '@app/shared/routes';
import { isIP, isIPv4, isIPv6 } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { DEV_BYPASS_HEADER, ORIGIN_SECRET_HEADER, SESSION_COOKIE, SESSION_USER_HEADER } from '@app/shared/constants';
import { cachedSiteSettings } from '../db/site-settings.ts';
import { siteOrigins } from '../domain/origins.ts';
import type { User } from '../domain/users.ts';
import { authenticateSession, isValidBypassToken, presentedToken, renewedToken, type Session } from './auth.ts';
import { env } from './env.ts';
import { badRequest, HttpError, unauthorized } from './errors.ts';
import { log, securityEvent, withRequestIds } from './log.ts';
import { originSecret, withRouteSecrets } from './secrets.ts';
import { clearedSessionCookie, requestCookies, sessionCookie } from './session-cookie.ts';

/** What an API Gateway REST API Lambda proxy integration sends (payload 1.0). */
export type Event = APIGatewayProxyEvent;
export type Result = APIGatewayProxyResult;
export type LambdaHandler = (event: Event, context?: Pick<Context, 'awsRequestId'>) => Promise<Result>;

/** A handler may return this to choose status and headers; otherwise its value is a 200 JSON body. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;
type AuthedUser<A> = A extends 'user' | 'pro' ? User : undefined;
type AuthedSession<A> = A extends 'user' | 'pro' ? Session : undefined;

export interface Ctx<N extends RouteName> {
  body: Infer<Routes[N] extends { body: infer B } ? B : undefined>;
  query: Infer<Routes[N] extends { query: infer Q } ? Q : undefined>;
  params: Infer<Routes[N] extends { params: infer P } ? P : undefined>;
  user: AuthedUser<Routes[N]['auth']>;
  /** The caller's session (its id, sign-in time), on the routes that need one. */
  session: AuthedSession<Routes[N]['auth']>;
  /** The request's cookies by name (requestCookies). */
  cookies: Record<string, string>;
  /** The raw request body as received (after base64 decoding), for signature checks. */
  rawBody: string;
  /** The request's headers, every name in lower case (requestHeaders). */
  headers: Record<string, string | undefined>;
  /** The visitor's address for per-client limits: IPv6 reduced to its /64 network (see clientBucket). */
  sourceIp: string;
  /** The visitor's own address, whole (for the bot check's provider); '' when unknown. */
  viewerIp: string;
  event: Event;
}

type Out<N extends RouteName> = z.input<Routes[N]['response']> | Reply;

const MAX_BODY_BYTES = 6 * 1024 * 1024;
const GENERIC_500 = 'Something went wrong on our side. Please try again.';
const MAINTENANCE = 'The site is under maintenance; changes cannot be saved right now. Please try again later.';

/**
 * The one handler wrapper: authenticate, parse with the route's schemas, run, map errors. While
 * maintenance mode is on, a route it closes (closedDuringMaintenance: it writes, whatever its HTTP
 * method, and is not kept open) refuses with 503 `{code: 'maintenance'}`, except to callers sending
 * a valid dev bypass token in the x-dev-bypass header. The request may read only the secrets the
 * route table gives the route (routeSecrets).
 */
export function route<N extends RouteName>(name: N, fn: (ctx: Ctx<N>) => Promise<Out<N>>): LambdaHandler {
  const def: RouteDef = routes[name];
  const allowed = routeSecrets(name, def);
  // Every log line of the request carries API Gateway's and Lambda's request ids.
  return (event, context) =>
    withRequestIds({ correlation_id: event.requestContext?.requestId, function_request_id: context?.awsRequestId }, () =>
      withRouteSecrets(name, allowed, () => run(event)),
    );
  async function run(event: Event): Promise<Result> {
    // A refused session cookie is cleared, so the browser stops sending it.
    let sessionRefused = false;
    try {
      const headers = requestHeaders(event);
      if (!(await fromOrigin(headers))) return json(403, { error: 'Forbidden', code: 'forbidden' });
      if (guardedAgainstOtherSites(def) && fromAnotherSite(headers)) {
        securityEvent('cross_site_refused', { route: name, source_ip: clientAddress(event, headers) });
        return json(403, { error: 'This request came from another site and was refused.', code: 'cross_site' });
      }
      const cookies = requestCookies(event);
      if (await refusedForMaintenance(headers)) return json(503, { error: MAINTENANCE, code: 'maintenance' }, { 'retry-after': '60' });
      const rawBody = decodeBody(event);
      const ctx = {
        rawBody,
        headers,
        cookies,
        sourceIp: clientAddress(event, headers),
        viewerIp: viewerAddress(event, headers),
        event,
        body: undefined,
        query: undefined,
        params: undefined,
        user: undefined,
        session: undefined,
      } as Record<string, unknown>;
      // The caller first, then the input: a stranger's body (up to 6 MB) is never parsed.
      const renewal: Record<string, string> = {};
      if (def.auth === 'user' || def.auth === 'pro') {
        const token = presentedToken(headers, cookies);
        const fromCookie = token !== undefined && token === cookies[SESSION_COOKIE];
        let session: Session;
        try {
          session = await authenticateSession(token, def.auth === 'pro');
        } catch (err) {
          sessionRefused = fromCookie && err instanceof HttpError && err.status === 401;
          throw err;
        }
        const meantFor = headers[SESSION_USER_HEADER];
        if (meantFor !== undefined && meantFor !== session.user.id) {
          throw unauthorized('This was meant for another account, no longer signed in here.', 'session_changed');
        }
        ctx.user = session.user;
        ctx.session = session;
        // A renewed token goes where the token came from: a cookie for browsers (scripts sending a Bearer header sign in again).
        const fresh = fromCookie ? await renewedToken(session) : undefined;
        if (fresh) renewal['set-cookie'] = sessionCookie(fresh.token, fresh.expiresAt);
      }
      if (def.body) ctx.body = parse(def.body, parseJson(rawBody));
      if (def.query) ctx.query = parse(def.query, queryParameters(event));
      if (def.params) ctx.params = parse(def.params, event.pathParameters ?? {}, 404);
      const out = await fn(ctx as unknown as Ctx<N>);
      // A handler's own session cookie (a password change's fresh one, a logout's cleared one) wins over the renewal.
      if (out instanceof Reply) return json(out.status, out.body, { ...renewal, ...out.headers });
      return json(200, def.response.parse(out), renewal);
    } catch (err) {
      const result = errorResult(err);
      if (sessionRefused) result.headers = { ...result.headers, 'set-cookie': clearedSessionCookie() };
      return result;
    }
  }

  async function refusedForMaintenance(headers: HeaderMap): Promise<boolean> {
    if (!closedDuringMaintenance(name, def)) return false;
    const settings = await cachedSiteSettings();
    if (!settings.maintenanceMode) return false;
    return !(await isValidBypassToken(headers[DEV_BYPASS_HEADER], settings.devPasswordHash));
  }
}

export function errorResult(err: unknown): Result {
  if (err instanceof HttpError && err.status < 500) {
    return json(err.status, { error: err.message, ...err.extra });
  }
  const status = err instanceof HttpError ? err.status : 500;
  log.error('request failed', { error: err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : err });
  return json(status, { error: GENERIC_500, code: 'server_error' });
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Result {
  return {
    statusCode: status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
    body: JSON.stringify(body),
    isBase64Encoded: false,
  };
}

type HeaderMap = Record<string, string | undefined>;

/**
 * The routes guarded against requests another site starts (cross-site request forgery): every one
 * that changes something (not a GET, or a GET that writes), but Stripe's webhook, which no browser
 * calls. The session cookie is SameSite=Strict already; this second lock holds where a browser
 * would send it anyway (another subdomain of the site's domain is the same site to SameSite).
 */
const guardedAgainstOtherSites = (def: RouteDef): boolean => def.auth !== 'stripe' && (def.method !== 'GET' || writesData(def));

/**
 * Whether a browser says the request came from another origin: Sec-Fetch-Site (every current
 * browser sends it) other than same-origin or none (typed in the address bar), or an Origin header
 * that is not one of the site's (siteOrigins of APP_URL). A request with neither header is no
 * browser's cross-site request (scripts and tests send none) and passes.
 */
export function fromAnotherSite(headers: HeaderMap): boolean {
  const site = headers['sec-fetch-site']?.trim().toLowerCase();
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return true;
  const origin = headers.origin?.trim();
  return origin !== undefined && !siteOrigins(env().APP_URL).includes(origin);
}

/**
 * The request's headers with every name in lower case: the REST API passes them with the case
 * the client (or CloudFront) wrote. A name sent twice keeps its last value (API Gateway's
 * `headers`), whatever the case of each.
 */
export function requestHeaders(event: Pick<Event, 'headers'>): HeaderMap {
  const out: HeaderMap = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) if (value !== undefined) out[name.toLowerCase()] = value;
  return out;
}

/**
 * The query parameters the route's schema reads: a parameter sent more than once is its values
 * joined by commas (API Gateway's `queryStringParameters` keeps only the last).
 */
function queryParameters(event: Event): Record<string, string> {
  const multi = event.multiValueQueryStringParameters ?? {};
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.queryStringParameters ?? {})) if (value !== undefined) out[name] = value;
  for (const [name, values] of Object.entries(multi)) if (values && values.length > 0) out[name] = values.join(',');
  return out;
}

/**
 * Only CloudFront may call the API (it alone can vouch for x-viewer-address): it sends the origin
 * secret in ORIGIN_SECRET_HEADER. The stage's web ACL already blocks, before API Gateway, every
 * request without it (infra/lib/edge.ts); this check stays as a second lock, so a request straight
 * to the execute-api endpoint is refused even if the web ACL were detached.
 * Without an origin secret (locally) every request passes: the local server is the origin.
 */
async function fromOrigin(headers: HeaderMap): Promise<boolean> {
  const expected = await originSecret();
  if (expected === undefined) return true;
  const sent = Buffer.from(headers[ORIGIN_SECRET_HEADER] ?? '');
  const want = Buffer.from(expected);
  return sent.length === want.length && timingSafeEqual(sent, want);
}

/**
 * The visitor's address: behind CloudFront, API Gateway sees the edge's address, so the
 * distribution's viewer-request function passes the visitor's in `x-viewer-address`
 * (infra/lib/web.ts; it overwrites any value the client sent).
 */
/** The viewer's address as CloudFront saw it (else the connection's), whole; '' when neither is an address. */
function viewerAddress(event: Event, headers: HeaderMap): string {
  const candidates = [headers['x-viewer-address']?.trim() ?? '', event.requestContext?.identity?.sourceIp ?? ''];
  return candidates.find((address) => isIP(address) !== 0) ?? '';
}

function clientAddress(event: Event, headers: HeaderMap): string {
  const viewer = clientBucket(headers['x-viewer-address']?.trim() ?? '');
  return viewer ?? clientBucket(event.requestContext?.identity?.sourceIp ?? '') ?? 'unknown';
}

/**
 * The address per-client limits count under: IPv4 as is; IPv6 by its /64 network, written as that
 * network's first address (one subscriber holds a whole /64, so moving within it changes nothing);
 * IPv4-mapped IPv6 as the IPv4 address. Anything else is no address (undefined).
 */
export function clientBucket(address: string): string | undefined {
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return undefined;
  let text = address.toLowerCase().replace(/%.*$/, '');
  // A dotted IPv4 tail (::ffff:192.0.2.1) as its two 16-bit groups.
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right].map((g) => parseInt(g, 16));
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  }
  // The URL parser writes IPv6 in its canonical (compressed) form.
  return new URL(`http://[${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::]`).hostname.slice(1, -1);
}

function decodeBody(event: Event): string {
  const body = event.body ?? '';
  if (body.length > MAX_BODY_BYTES * 1.4) throw new HttpError(413, 'Request body is too large', { code: 'too_large' });
  const raw = event.isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
  if (Buffer.byteLength(raw) > MAX_BODY_BYTES) throw new HttpError(413, 'Request body is too large', { code: 'too_large' });
  return raw;
}

function parseJson(raw: string): unknown {
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw);
  } catch {
    throw badRequest('Request body must be valid JSON', 'invalid_json');
  }
}

function parse<S extends z.ZodType>(schema: S, value: unknown, status = 400): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path.join('.') ?? '';
  const message = issue?.message ?? 'Invalid request';
  const text = path && /^Invalid|^Unrecognized|^Too (big|small)|expected/.test(message) ? `${path}: ${message}` : message;
  throw new HttpError(status, status === 404 ? 'Not found' : text, { code: status === 404 ? 'not_found' : 'invalid_input' });
}
