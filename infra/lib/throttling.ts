import type { RouteDef, RouteName } from '@app/shared/routes';

/**
 * API Gateway throttling (token bucket, per stage, shared by all callers: a backstop for cost and
 * abuse; the per-client and per-account limits live in the handlers).
 * `rateLimit` is requests per second, `burstLimit` the bucket size.
 */
export interface Throttle {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

/** Every route without its own entry below. */
export const DEFAULT_THROTTLE: Throttle = { rateLimit: 200, burstLimit: 400 };

/**
 * Unauthenticated routes that cost scrypt, mail or a write per call. Keyed by route-table name, so
 * the stage's route keys (`METHOD /path`) always come from the table: a changed path follows, a
 * removed route fails to compile here.
 */
export const ROUTE_THROTTLES = {
  login: { rateLimit: 10, burstLimit: 20 },
  register: { rateLimit: 5, burstLimit: 10 },
  forgotPassword: { rateLimit: 2, burstLimit: 5 },
  contact: { rateLimit: 1, burstLimit: 5 },
  checkDevPassword: { rateLimit: 1, burstLimit: 5 },
  analytics: { rateLimit: 20, burstLimit: 50 },
  // The live view (cached by CloudFront 1 s per offset: a few origin calls a second per talk) and
  // the viewers' pings (one per viewer every 30 s: 5,000 viewers are about 170 a second) get
  // buckets of their own, so a crowd, or one client, following a talk never uses up the stage's.
  viewLiveShare: { rateLimit: 200, burstLimit: 400 },
  recordLiveViewer: { rateLimit: 250, burstLimit: 500 },
} as const satisfies Partial<Record<RouteName, Throttle>>;

/** An HTTP API route key: `POST /api/auth/login`. */
export const routeKey = (r: Pick<RouteDef, 'method' | 'path'>): string => `${r.method} ${r.path}`;

/** Route key -> throttle, for the routes of `table` that have one. */
export function routeThrottles(table: Readonly<Record<string, RouteDef>>): Map<string, Throttle> {
  const out = new Map<string, Throttle>();
  for (const [name, t] of Object.entries(ROUTE_THROTTLES)) {
    const route = table[name];
    if (route) out.set(routeKey(route), t);
  }
  return out;
}
