import { LIVE_CACHE_SECONDS, LIVE_VIEW_MAX_CHARS, LIVE_VIEW_MAX_CHUNKS } from '@app/shared/constants';
import { routes } from '@app/shared/routes';
import { getAutomaticTranscription } from '../../db/automatic-transcriptions.ts';
import { readTextFrom } from '../../db/chunk-store.ts';
import { nowSeconds } from '../../db/client.ts';
import { getLiveShare } from '../../db/live-shares.ts';
import { liveWindow } from '../../domain/live.ts';
import { notFound } from '../../lib/errors.ts';
import { Reply, route } from '../../lib/http.ts';

/**
 * What a viewer of a live link reads: the transcript from `after` on (from the start of the
 * stored chunk `after` falls in, so every offset inside one chunk gets the same answer; `from`
 * says where it starts), where to ask next, and whether it is still live. Anyone with the code
 * may read; the answer never names the owner or the session. Cheap, as every viewer asks twice
 * a second: one read of the share, one of the session, one Query of the chunks from `after` on;
 * and the same for everyone, so CloudFront keeps it LIVE_CACHE_SECONDS (keyed by path and
 * `after` only, which its viewer-request function lets through only in its one spelling).
 *
 * What the link shows (domain/live.ts): the words said since sharing began (or all of them, as
 * the speaker chose), live; "ended" once the speaker stopped sharing (the text, language and time
 * of then), the session completed or the link expired, and after a short grace no text at all.
 * An unknown code, or one whose session was deleted: 404.
 */
const LIVE_VIEW_CAP = { maxChars: LIVE_VIEW_MAX_CHARS, maxChunks: LIVE_VIEW_MAX_CHUNKS };

export const handler = route('viewLiveShare', async ({ params, query }) => {
  const share = await getLiveShare(params.code);
  const session = share && (await getAutomaticTranscription(share.userId, share.sessionId));
  if (!share || !session) throw notFound('This live caption link does not exist.');
  const view = liveWindow(share, session, nowSeconds());
  // A link past its grace or expiry shows nothing: the viewer keeps what it has.
  const end = view.end ?? query.after;
  const after = view.end === null ? query.after : Math.min(Math.max(query.after, view.start), end);
  const read = after < end ? await readTextFrom(share.userId, 'AUTO', share.sessionId, after, session.length, LIVE_VIEW_CAP, session.layout) : { from: after, text: '', next: after };
  // From the start of the chunk `after` falls in, but never before the share's start nor past its end.
  const from = Math.min(Math.max(read.from, view.start), end);
  const next = Math.max(from, Math.min(read.next, end));
  const body = routes.viewLiveShare.response.parse({
    status: view.status,
    from,
    text: read.text.slice(from - read.from, next - read.from),
    next,
    language: view.language,
    updatedAt: view.updatedAt,
    mask: share.mask ?? 'off',
    ...(share.style && { style: share.style }),
  });
  return new Reply(200, body, { 'cache-control': `public, max-age=${LIVE_CACHE_SECONDS}` });
});
