import { LIVE_CACHE_SECONDS, LIVE_HOLD_CHECK_MS, LIVE_HOLD_SECONDS, LIVE_VIEW_MAX_CHARS, LIVE_VIEW_MAX_CHUNKS } from '@app/shared/constants';
import { routes } from '@app/shared/routes';
import type { LiveView } from '@app/shared/schemas/live';
import { getAutomaticTranscription, type AutomaticTranscriptionItem } from '../../db/automatic-transcriptions.ts';
import { readTextFrom } from '../../db/chunk-store.ts';
import { nowSeconds } from '../../db/client.ts';
import { keys } from '../../db/keys.ts';
import { getLiveShare, type LiveShare } from '../../db/live-shares.ts';
import { batchGetItems } from '../../db/pages.ts';
import { liveWindow } from '../../domain/live.ts';
import { notFound } from '../../lib/errors.ts';
import { Reply, route } from '../../lib/http.ts';

/**
 * What a viewer of a live link reads: the transcript from `after` on (from the start of the
 * stored chunk `after` falls in, so every offset inside one chunk gets the same answer; `from`
 * says where it starts), where to ask next, and whether it is still live. Anyone with the code
 * may read; the answer never names the owner or the session. Cheap: one read of the share, one
 * of the session, one Query of the chunks from `after` on; and the same for everyone, so
 * CloudFront keeps it LIVE_CACHE_SECONDS (keyed by path and `after` only, which its
 * viewer-request function lets through only in its one spelling).
 *
 * A long poll: while the share is live and `after` is the end of what is stored (a viewer that
 * has everything), the request is held, the share and the session read again every
 * LIVE_HOLD_CHECK_MS (in one BatchGetItem: the share's owner and session never change, so its
 * keys are known after the first read; one request a check instead of two, for CPU and time), and answered as soon as new text is stored, the share stops or the session
 * completes; after LIVE_HOLD_SECONDS with nothing new, it answers no text and `no-store` (never
 * kept: the viewer asks again at once and is held again). CloudFront collapses the concurrent
 * requests for one offset into this one call.
 *
 * What the link shows (domain/live.ts): the words said since sharing began (or all of them, as
 * the speaker chose), live; "ended" once the speaker stopped sharing (the text, language and time
 * of then), the session completed or the link expired, and after a short grace no text at all.
 * An unknown code, or one whose session was deleted: 404.
 */
const LIVE_VIEW_CAP = { maxChars: LIVE_VIEW_MAX_CHARS, maxChunks: LIVE_VIEW_MAX_CHUNKS };

type Read = { share: LiveShare | undefined; session: AutomaticTranscriptionItem | undefined };

/** The share and its session: one after the other the first time, then both at once (`known`: the share read before). */
async function readShare(code: string, known: LiveShare | undefined): Promise<Read> {
  if (!known) {
    const share = await getLiveShare(code);
    return { share, session: share && (await getAutomaticTranscription(share.userId, share.sessionId)) };
  }
  const items = await batchGetItems<Record<string, unknown>>([keys.liveShare(code), keys.transcript(known.userId, 'AUTO', known.sessionId)], true);
  return {
    share: items.find((i) => i.type === 'liveShare') as LiveShare | undefined,
    session: items.find((i) => i.type === 'autosaveSession') as AutomaticTranscriptionItem | undefined,
  };
}

/**
 * The answer to a viewer at `after` now (made and checked against the route's schema only when
 * it is sent: a held call's checks that find nothing new make none), whether it brings something
 * (text, or the end), and the share read.
 */
async function viewOnce(code: string, after: number, known?: LiveShare): Promise<{ body: () => LiveView; news: boolean; share: LiveShare }> {
  const { share, session } = await readShare(code, known);
  if (!share || !session) throw notFound('This live caption link does not exist.');
  const view = liveWindow(share, session, nowSeconds());
  // A link past its grace or expiry shows nothing: the viewer keeps what it has.
  const end = view.end ?? after;
  const at = view.end === null ? after : Math.min(Math.max(after, view.start), end);
  const read = at < end ? await readTextFrom(share.userId, 'AUTO', share.sessionId, at, session.length, LIVE_VIEW_CAP, session.layout) : { from: at, text: '', next: at };
  // From the start of the chunk `after` falls in, but never before the share's start nor past its end.
  const from = Math.min(Math.max(read.from, view.start), end);
  const next = Math.max(from, Math.min(read.next, end));
  const body = () =>
    routes.viewLiveShare.response.parse({
    status: view.status,
    from,
    text: read.text.slice(from - read.from, next - read.from),
    next,
    language: view.language,
    updatedAt: view.updatedAt,
    mask: share.mask ?? 'off',
    ...(share.style && { style: share.style }),
    });
  // Only a viewer at the very end is held: an offset past it (never one the server gave) is
  // answered at once, so no request can hold a function on a key no viewer shares.
  return { body, news: view.status !== 'live' || next !== after, share };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The view, held up to `holdMs` while there is nothing new (see above). */
export async function viewLiveShare(code: string, after: number, holdMs: number): Promise<Reply> {
  const until = Date.now() + holdMs;
  let known: LiveShare | undefined;
  for (;;) {
    const { body, news, share } = await viewOnce(code, after, known);
    known = share;
    if (news) return new Reply(200, body(), { 'cache-control': `public, max-age=${LIVE_CACHE_SECONDS}` });
    if (Date.now() + LIVE_HOLD_CHECK_MS >= until) return new Reply(200, body(), { 'cache-control': 'no-store' });
    await sleep(LIVE_HOLD_CHECK_MS);
  }
}

export const handler = route('viewLiveShare', ({ params, query }) => viewLiveShare(params.code, query.after, LIVE_HOLD_SECONDS * 1000));
