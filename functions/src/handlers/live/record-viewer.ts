import { LIVE_VIEWERS_MAX } from '@app/shared/constants';
import { getLiveShare, isLive, recordViewer } from '../../db/live-shares.ts';
import { hitRateLimit, type RateRule } from '../../db/rate-limits.ts';
import { notFound, tooMany } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';

/**
 * Per client address: a viewer calls every LIVE_VIEWER_PING_MS (2 a minute), and a whole room
 * may share one address (one Wi-Fi), so this allows some 600 viewers behind one.
 */
export const LIVE_VIEWER_RATE: RateRule = { limit: 1_200, windowSeconds: 60 };

/**
 * Per live code, from every address together: the counted audience (LIVE_VIEWERS_MAX) pinging
 * twice a minute, with room for reconnects; past it, made-up viewer ids cannot inflate the count.
 */
export const LIVE_VIEWER_CODE_RATE: RateRule = { limit: LIVE_VIEWERS_MAX * 3, windowSeconds: 60 };

/** A viewer of a live link says it is watching (not cached: the count needs every viewer). */
export const handler = route('recordLiveViewer', async ({ params, body, sourceIp }) => {
  const limit = await hitRateLimit('live-viewer', sourceIp, LIVE_VIEWER_RATE);
  if (!limit.allowed) throw tooMany('Too many requests. Please try again later.', limit.secondsLeft);
  const perCode = await hitRateLimit('live-viewer-code', params.code, LIVE_VIEWER_CODE_RATE);
  if (!perCode.allowed) throw tooMany('Too many requests. Please try again later.', perCode.secondsLeft);
  const share = await getLiveShare(params.code);
  if (!share) throw notFound('This live caption link does not exist.');
  if (isLive(share)) await recordViewer(params.code, body.viewerId);
  return { ok: true as const };
});
