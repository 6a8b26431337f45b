import { getAutomaticTranscription } from '../../db/automatic-transcriptions.ts';
import { getLiveShare, stopLiveShare } from '../../db/live-shares.ts';
import { hitRateLimit } from '../../db/rate-limits.ts';
import { notFound, tooMany } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';
import { LIVE_SHARE_RATE } from './start-share.ts';

/**
 * Stops sharing: viewers see "ended" and never more text than the session held at this moment.
 * Only the owner may (anyone else, or an unknown code: 404); stopping twice is fine.
 */
export const handler = route('stopLiveShare', async ({ user, params, sourceIp }) => {
  const limit = await hitRateLimit('live-share', sourceIp, LIVE_SHARE_RATE);
  if (!limit.allowed) throw tooMany('Too many requests. Please try again later.', limit.secondsLeft);
  const share = await getLiveShare(params.code, true);
  if (!share || share.userId !== user.id) throw notFound('Unknown live link');
  const session = await getAutomaticTranscription(user.id, share.sessionId);
  if (!(await stopLiveShare(user.id, params.code, session))) throw notFound('Unknown live link');
  return { ok: true as const };
});
