import type { RouteDef, RouteName } from '@app/shared/routes';

/**
 * API Gateway throttling (token bucket, per stage, shared by all callers): a backstop for cost.
 * Junk never reaches it: the stage's web ACL blocks every request that did not come through
 * CloudFront before API Gateway counts it, and CloudFront's web ACL limits each client address
 * (lib/edge.ts); the per-client and per-account limits live in the handlers. So every figure sits
 * well above the product's real peak (docs/edge.md), and all of them together below the account's
 * 10,000 requests a second per region.
 * `rateLimit` is requests per second, `burstLimit` the bucket size.
 */
export interface Throttle {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

/** Every route without its own entry below. */
export const DEFAULT_THROTTLE: Throttle = { rateLimit: 1_000, burstLimit: 2_000 };

/**
 * Unauthenticated routes that cost scrypt, mail or a write per call. Keyed by route-table name, so
 * the stage's method settings (`/path/METHOD`) always come from the table: a changed path follows,
 * a removed route fails to compile here.
 */
export const ROUTE_THROTTLES = {
  // Its burst is the login function's reserved concurrency (lib/api-function.ts): one execution each.
  login: { rateLimit: 20, burstLimit: 20 },
  register: { rateLimit: 20, burstLimit: 40 },
  forgotPassword: { rateLimit: 10, burstLimit: 15 },
  contact: { rateLimit: 5, burstLimit: 10 },
  checkDevPassword: { rateLimit: 5, burstLimit: 10 },
  analytics: { rateLimit: 100, burstLimit: 200 },
  // The live view (cached by CloudFront 1 s per offset: a few origin calls a second per talk and
  // edge) and the viewers' pings (one per viewer every 50 s: 5,000 viewers are 100 a second)
  // get buckets of their own, so crowds following talks never use up the stage's.
  viewLiveShare: { rateLimit: 1_000, burstLimit: 2_000 },
  recordLiveViewer: { rateLimit: 1_000, burstLimit: 2_000 },
} as const satisfies Partial<Record<RouteName, Throttle>>;

/** A route's key as the route table spells it, and the access log's `routeKey`: `POST /api/auth/login`. */
export const routeKey = (r: Pick<RouteDef, 'method' | 'path'>): string => `${r.method} ${r.path}`;

/** A REST API stage's method-settings path of a route: `/api/auth/login/POST`. */
export const methodPath = (r: Pick<RouteDef, 'method' | 'path'>): string => `${r.path}/${r.method}`;

/** Route key -> throttle, for the routes of `table` that have one. */
export function routeThrottles(table: Readonly<Record<string, RouteDef>>): Map<string, Throttle> {
  const out = new Map<string, Throttle>();
  for (const [name, t] of Object.entries(ROUTE_THROTTLES)) {
    const route = table[name];
    if (route) out.set(routeKey(route), t);
  }
  return out;
}

/** Method-settings path (methodPath) -> throttle, for the routes of `table` that have one. */
export function methodThrottles(table: Readonly<Record<string, RouteDef>>): Map<string, Throttle> {
  const out = new Map<string, Throttle>();
  for (const [name, t] of Object.entries(ROUTE_THROTTLES)) {
    const route = table[name];
    if (route) out.set(methodPath(route), t);
  }
  return out;
}
