import { LIVE_CACHE_SECONDS } from '@app/shared/constants';
import { routes } from '@app/shared/routes';
import { getAutomaticTranscription } from '../../db/automatic-transcriptions.ts';
import { readTextFrom } from '../../db/chunk-store.ts';
import { isLive, getLiveShare } from '../../db/live-shares.ts';
import { notFound } from '../../lib/errors.ts';
import { Reply, route } from '../../lib/http.ts';

/**
 * What a viewer of a live link reads: the transcript from `after` on, where to ask next, and
 * whether it is still live. Anyone with the code may read; the answer never names the owner
 * or the session. Cheap, as every viewer asks every second: one read of the share, one of the
 * session, one Query of the chunks from `after` on; and the same for everyone, so CloudFront
 * keeps it LIVE_CACHE_SECONDS (keyed by path and `after` only).
 *
 * "ended": the owner stopped sharing (the text stops where it was then), the session completed
 * (its whole text), or the link expired (no more text). An unknown code, or one whose session
 * was deleted: 404.
 */
export const handler = route('viewLiveShare', async ({ params, query }) => {
  const share = await getLiveShare(params.code);
  const session = share && (await getAutomaticTranscription(share.userId, share.sessionId));
  if (!share || !session) throw notFound('This live caption link does not exist.');
  const live = isLive(share) && !session.isCompleted;
  const end = share.endOffset ?? (live || session.isCompleted ? Infinity : query.after);
  const after = Math.min(query.after, end);
  const read = after < end ? await readTextFrom(share.userId, 'AUTO', share.sessionId, after, session.length) : { text: '', next: after };
  const next = Math.min(read.next, end);
  const body = routes.viewLiveShare.response.parse({
    status: live ? 'live' : 'ended',
    text: read.text.slice(0, Math.max(0, next - after)),
    next,
    language: session.language,
    updatedAt: session.updatedAt,
  });
  return new Reply(200, body, { 'cache-control': `public, max-age=${LIVE_CACHE_SECONDS}` });
});
