import { getLiveShare, isLive, recordViewer, type LiveShare } from '../../db/live-shares.ts';
import { notFound } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';

/**
 * How long a function instance goes on using a share it read. Which codes are shares, and until
 * when they expire, never changes; only a stop does, and the owner's count reads the share itself
 * and counts nobody once it is not live (count-viewers.ts), so a ping at most this long after a
 * stop writes an item nobody counts.
 */
export const LIVE_SHARE_MEMO_MS = 60_000;
/** Shares a function instance remembers at most (the oldest go first); unknown codes are never remembered. */
const MEMO_MAX = 1_000;
const memo = new Map<string, { share: Promise<LiveShare | undefined>; until: number }>();

/**
 * The share of `code`: read once per instance per LIVE_SHARE_MEMO_MS, not once per ping. Pings
 * arriving while it is being read wait for that read (a crowd joining, or the memo expiring under
 * a crowd's pings, costs one read, not one per ping in flight).
 */
function shareOf(code: string): Promise<LiveShare | undefined> {
  const now = Date.now();
  const hit = memo.get(code);
  if (hit && hit.until > now) return hit.share;
  memo.delete(code);
  const entry = { share: getLiveShare(code), until: Infinity };
  memo.set(code, entry);
  entry.share.then(
    (share) => {
      if (memo.get(code) !== entry) return;
      // Unknown codes are never remembered, nor push out a share.
      if (!share) return void memo.delete(code);
      entry.until = Date.now() + LIVE_SHARE_MEMO_MS;
      for (const oldest of memo.keys()) {
        if (memo.size <= MEMO_MAX) break;
        if (oldest !== code) memo.delete(oldest);
      }
    },
    () => {
      if (memo.get(code) === entry) memo.delete(code);
    },
  );
  return entry.share;
}

/**
 * A viewer of a live link says it is watching (not cached: the count needs every viewer). One
 * write a ping, the viewer's own item of the minute (db/live-shares.ts), and no read per ping: the
 * share comes from this instance's memory (above). Unknown code: 404; a share that is not live
 * records nobody.
 *
 * Limits: per client address, CloudFront's web ACL (`Rate-recordLiveViewer`, infra/lib/edge.ts:
 * 1,440 a minute, a room of ~600 behind one address), so the handler keeps no window of its own
 * (it cost two writes a ping); the API's own throttle bucket for this route (infra/lib/throttling.ts)
 * bounds what a flood from many addresses can write. Made-up viewer ids cannot inflate the count
 * past LIVE_VIEWERS_MAX: the count stops reading there.
 */
export const handler = route('recordLiveViewer', async ({ params, body }) => {
  const share = await shareOf(params.code);
  if (!share) throw notFound('This live caption link does not exist.');
  if (isLive(share)) await recordViewer(params.code, body.viewerId);
  return { ok: true as const };
});
