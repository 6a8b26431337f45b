import { countViewers, getLiveShare, isLive } from '../../db/live-shares.ts';
import { hitRateLimit, type RateRule } from '../../db/rate-limits.ts';
import { notFound, tooMany } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';

/** The speaker's page asks every few seconds at most. */
export const LIVE_COUNT_RATE: RateRule = { limit: 60, windowSeconds: 60 };

/**
 * How many people follow the caller's live link: distinct viewers heard this minute and the last,
 * and nobody once it is not live (a ping may still write an item shortly after a stop: see
 * record-viewer.ts). Owner only (else 404).
 */
export const handler = route('countLiveViewers', async ({ user, params, sourceIp }) => {
  const limit = await hitRateLimit('live-count', sourceIp, LIVE_COUNT_RATE);
  if (!limit.allowed) throw tooMany('Too many requests. Please try again later.', limit.secondsLeft);
  const share = await getLiveShare(params.code);
  if (!share || share.userId !== user.id) throw notFound('Unknown live link');
  return { viewers: isLive(share) ? await countViewers(params.code) : 0 };
});
