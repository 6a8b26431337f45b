import { nowSeconds } from '../../db/client.ts';
import { listOwnShares, stopLiveShare } from '../../db/live-shares.ts';
import { hitRateLimit } from '../../db/rate-limits.ts';
import { liveWindow } from '../../domain/live.ts';
import { tooMany } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';
import { LIVE_SHARE_RATE } from './start-share.ts';

/** Stops every live link of the caller at once (as stopping each would): how many were live. */
export const handler = route('stopAllLiveShares', async ({ user, sourceIp }) => {
  const limit = await hitRateLimit('live-share', sourceIp, LIVE_SHARE_RATE);
  if (!limit.allowed) throw tooMany('Too many requests. Please try again later.', limit.secondsLeft);
  const now = nowSeconds();
  const live = (await listOwnShares(user.id, now)).filter(({ share, session }) => session && liveWindow(share, session, now).status === 'live');
  await Promise.all(live.map(({ share, session }) => stopLiveShare(user.id, share.code, session)));
  return { stopped: live.length };
});
