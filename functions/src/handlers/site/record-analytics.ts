import { recordVisit } from '../../db/analytics.ts';
import { hitRateLimit } from '../../db/rate-limits.ts';
import { authenticateSession, presentedToken } from '../../lib/auth.ts';
import { tooMany } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';

/** The client sends at most one visit a day; this only stops floods. */
export const ANALYTICS_RATE = { limit: 30, windowSeconds: 60 * 60 };

/** Stores one visit (kept for the retention period, then removed by TTL); the client ignores the answer. */
export const handler = route('analytics', async ({ body, sourceIp, headers, cookies }) => {
  const limit = await hitRateLimit('analytics', sourceIp, ANALYTICS_RATE);
  if (!limit.allowed) throw tooMany('Too many requests. Please try again later.', limit.secondsLeft);
  let userId: string | undefined;
  const token = presentedToken(headers, cookies);
  if (token) {
    try {
      userId = (await authenticateSession(token, false)).user.id;
    } catch {
      // An expired or invalid token still counts as an anonymous visit.
    }
  }
  await recordVisit(body, userId);
  return { ok: true as const };
});
