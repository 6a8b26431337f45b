import { getAutomaticTranscription } from '../../db/automatic-transcriptions.ts';
import { getCaptionStyle } from '../../db/caption-style.ts';
import { getCorrections } from '../../db/corrections.ts';
import { startLiveShare } from '../../db/live-shares.ts';
import { hitRateLimit, type RateRule } from '../../db/rate-limits.ts';
import { conflict, notFound, tooMany } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';

/** Starting (or asking again for) a share: a speaker does it a few times a session. */
export const LIVE_SHARE_RATE: RateRule = { limit: 30, windowSeconds: 60 * 60 };

/**
 * Shares the caller's automatic transcription in progress: its live code (the same one while
 * that share lives) and when the link dies. Viewers read the words said from now on, or the
 * whole session with `includeEarlier`. Someone else's or an unknown session is 404; a completed
 * one 409. A new share takes the owner's share profanity mode and caption style of now (viewers'
 * pages apply them).
 */
export const handler = route('startLiveShare', async ({ user, body, sourceIp }) => {
  const limit = await hitRateLimit('live-share', sourceIp, LIVE_SHARE_RATE);
  if (!limit.allowed) throw tooMany('Too many requests. Please try again later.', limit.secondsLeft);
  const session = await getAutomaticTranscription(user.id, body.sessionId);
  if (!session) throw notFound('Unknown session');
  if (session.isCompleted) throw conflict('This transcription has ended: start a new one to share it.', 'session_completed');
  const [{ shareProfanity }, style] = await Promise.all([getCorrections(user.id), getCaptionStyle(user.id)]);
  const share = await startLiveShare(user.id, body.sessionId, body.includeEarlier ? 0 : session.length, shareProfanity, style);
  return { code: share.code, expiresAt: new Date(share.expiresAt * 1000).toISOString() };
});
