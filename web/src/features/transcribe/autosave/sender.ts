import { confirmed, DELTA_CHUNK_CHARS, hasText, hasWork, keepaliveDelta, metaChanged, nextDelta, totalOf, type Source } from './delta';
import { warn } from './log';
import type { QueueEntry, QueueStore } from './queue-storage';
import { online, type Transport } from './transport';

/**
 * The autosave protocol for the queued sessions: for each entry, its session id, its deltas,
 * then the completion of a stopped session; one pass at a time per entry (a request made
 * meanwhile runs after), nothing dropped until the server has confirmed it.
 */
export interface Sender {
  /** Runs the entry's work. `all`: also send a duration or language change without new text; `keepalive`: the first request must outlive the page. */
  flush(e: QueueEntry, all?: boolean, keepalive?: boolean): Promise<void>;
  /** A pass of the entry is under way. */
  busy(e: QueueEntry): boolean;
  /** The page is going away: what fits goes in keepalive requests, without waiting for answers. */
  sendBeforeLeaving(): void;
  /** Resolves when no request is in flight. */
  idle(): Promise<void>;
}

export interface SenderOptions {
  queue: QueueStore;
  transport: Transport;
  /** The user's own id while the device is signed in as that user, else null (nothing is sent). */
  sessionUser: () => string | null;
  stopped: () => boolean;
  /** The text `e` sends from (its device transcript); null when the device no longer holds it; rejects when it cannot be read now. */
  source(e: QueueEntry): Promise<Source | null>;
  /** The same, only when at hand without waiting (the page is going away). */
  sourceNow(e: QueueEntry): Source | null;
  /** A request of `e` is going out. */
  onSend(e: QueueEntry): void;
  /** `e` got its server session id. */
  onSessionId(e: QueueEntry): void;
  /** The server confirmed text of `e`. */
  onConfirmed(e: QueueEntry): void;
}

interface Pass {
  all: boolean;
  keepalive: boolean;
}

export function createSender({ queue, transport, sessionUser, stopped, source, sourceNow, onSend, onSessionId, onConfirmed }: SenderOptions): Sender {
  const { entries, persistNow, persistSoon, drop } = queue;
  const running = new Map<string, Promise<void>>();
  const rerun = new Map<string, Pass>();

  /**
   * 409: the server has less than we thought. Resend from its length (the device transcript is
   * whole). Text an entry carries inline is all this device has of its session: when the server
   * lacks text before it, the tail goes at the server's length rather than be lost.
   */
  function rebase(e: QueueEntry, length: number): void {
    const tail = e.inline;
    if (tail && length < tail.at) {
      warn(`the server lacks text this device no longer has (${length} < ${tail.at}); appending the rest at ${length}`);
      const shift = length - tail.at;
      for (const s of tail.segments) s.at += shift;
      tail.at = length;
      e.length += shift;
    }
    e.base = Math.max(0, Math.min(length, e.length));
    persistNow();
  }

  /**
   * The text of `e` at hand, and the entry's length cut to what the device holds (text it no
   * longer has cannot be sent); undefined when it cannot be read now (tried again later).
   */
  async function textOf(e: QueueEntry): Promise<Source | null | undefined> {
    try {
      const found = await source(e);
      const held = found ? found.text.length : e.base;
      if (held < e.length) {
        warn(`this device no longer holds all the unsent text (${held} of ${e.length} characters); sending what it has`);
        e.length = Math.max(e.base, held);
        persistNow();
      }
      return found;
    } catch (err) {
      warn('could not read the unsent text from device storage; retrying later', err);
      return undefined;
    }
  }

  /** One pass: session id, the deltas, then the completion of a stopped session. A dropped entry sends nothing. */
  async function runOnce(e: QueueEntry, { all, keepalive }: Pass): Promise<void> {
    if (!entries.has(e.id) || stopped() || !online() || !sessionUser() || transport.holding()) return;
    if (!e.sessionId) {
      // Keyed by the entry's id: a request whose answer never arrived (the page went away) or
      // that another page load repeats gets the same session, never a second, empty one.
      const reply = await transport.sessionId(e.id);
      if (transport.refused(reply)) return;
      if (reply.status === 403 && reply.data?.code === 'automatic_limit') {
        // The plan keeps no more automatic transcriptions this month: the session goes on live, unsaved.
        warn('this month\'s automatic transcriptions of the plan are kept already; this session is not saved');
        return drop(e);
      }
      const sessionId = reply.data?.sessionId;
      if (reply.status !== 200 || typeof sessionId !== 'string') {
        warn('no session id yet; retrying later', reply.status);
        return;
      }
      e.sessionId = sessionId;
      persistNow();
      onSessionId(e);
    }
    let gaps = 0;
    let text = hasText(e) ? await textOf(e) : null;
    if (text === undefined) return;
    // A pass sends what was said before it began. Text said while its requests are on their way
    // waits for the next save (the timer), so fast results never chain into a request per result;
    // a stopped session sends it all, then completes.
    const target = totalOf(e);
    let sent = 0;
    const more = () => hasText(e) && (e.stopped || e.base < target);
    const meta = () => (all || e.stopped) && metaChanged(e) && (e.stopped || sent === 0);
    while (entries.has(e.id) && (more() || meta())) {
      sent++;
      onSend(e);
      // Text said since (the transcript being recorded) is read from the transcript as it is now.
      if (hasText(e) && (!text || text.text.length < e.length)) text = await textOf(e);
      if (text === undefined) return;
      const from = text ?? { text: '', segments: [], segmentsFrom: 0 };
      // The first request of a pass started by the page going hidden must outlive the page.
      const fit = keepalive ? keepaliveDelta(e, from) : undefined;
      const delta = fit ?? nextDelta(e, from, DELTA_CHUNK_CHARS);
      const before = e.base;
      const reply = await transport.save(delta, fit !== undefined);
      keepalive = false;
      if (transport.refused(reply)) return;
      const length = reply.data?.length;
      if (reply.status === 200 && typeof length === 'number') {
        Object.assign(e, { base: confirmed(e, length), sentDurationSec: delta.duration, sentLanguage: delta.language });
        persistSoon();
        onConfirmed(e);
        if (delta.text && e.base === before) return warn('the server did not move forward; retrying later');
        // The connection works: sessions left waiting (failed earlier) go too, without waiting for a quiet tick.
        for (const other of entries.values()) if (other !== e && hasWork(other) && !running.has(other.id)) void flush(other, true);
      } else if (reply.status === 409 && typeof length === 'number' && gaps++ < 3) {
        rebase(e, length);
      } else if (reply.status === 404 || (reply.status === 409 && reply.data?.code === 'edited')) {
        warn('the session is gone on the server (deleted, or edited since it was completed); dropping it');
        return drop(e);
      } else if (reply.status === 400 && delta.segments.length && text) {
        warn('the server refused the segments; sending the text alone');
        text.segmentsFrom = e.length;
      } else if (reply.status === 400 || reply.status === 413) {
        warn('the server refused this save; dropping it', reply.data?.error);
        return drop(e);
      } else {
        // Network, 5xx, 401 (logged out), rate limits: the next tick, `online` or a later load retries.
        return warn('save failed; will retry', reply.status);
      }
    }
    if (e.stopped && entries.has(e.id) && !hasText(e)) {
      const reply = await transport.complete(e.sessionId, keepalive);
      if (transport.refused(reply)) return;
      if (reply.status === 200 || reply.status === 404) {
        // The entry stays the active one (a late final result may extend it) but leaves the queue,
        // unless such a result came while the request was on its way: that is sent next.
        if (reply.status === 404 || !hasText(e)) drop(e);
      } else warn('complete failed; will retry', reply.status);
    }
  }

  function flush(e: QueueEntry, all = false, keepalive = false): Promise<void> {
    const current = running.get(e.id);
    if (current) {
      const wanted = rerun.get(e.id);
      rerun.set(e.id, { all: all || (wanted?.all ?? false), keepalive: false });
      return current;
    }
    const run = (async () => {
      try {
        let pass: Pass | undefined = { all, keepalive };
        while (pass) {
          rerun.delete(e.id);
          await runOnce(e, pass);
          pass = rerun.get(e.id);
        }
      } catch (err) {
        warn('unexpected error', err);
      } finally {
        running.delete(e.id);
        rerun.delete(e.id);
      }
    })();
    running.set(e.id, run);
    return run;
  }

  /** From each session's confirmed length (a later part alone would be a gap); the rest waits in device storage for the next page load. */
  function sendBeforeLeaving(): void {
    if (!sessionUser() || !online()) return;
    for (const e of entries.values()) {
      if (!e.sessionId) continue;
      const text = sourceNow(e);
      if ((hasText(e) && text) || metaChanged(e)) {
        const delta = keepaliveDelta(e, text ?? { text: '', segments: [], segmentsFrom: 0 });
        if (delta) void transport.save(delta, true);
      }
      if (e.stopped) void transport.complete(e.sessionId, true);
    }
  }

  async function idle(): Promise<void> {
    while (running.size) await Promise.all([...running.values()]);
  }

  return { flush, busy: (e) => running.has(e.id), sendBeforeLeaving, idle };
}
