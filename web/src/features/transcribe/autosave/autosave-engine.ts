import { AUTOSAVE_INTERVAL_MS, AUTOSAVE_MIN_GAP_MS, LIVE_SAVE_INTERVAL_MS, type RecognitionLanguage } from '@app/shared/constants';
import type { Segment } from '@app/shared/schemas/transcriptions';
import { getToken as storedToken } from '../../../lib/auth-token';
import { tokenOwner } from '../lib/token-owner';
import type { TextSource } from '../lib/transcript-store';
import {
  confirmed,
  continuedBy,
  DELTA_CHUNK_CHARS,
  edgeOf,
  hasText,
  hasWork,
  inTail,
  keepaliveDelta,
  metaChanged,
  nextDelta,
  NO_PLACEMENT,
  placeSegments,
  resentFrom,
  shiftedTo,
  totalOf,
} from './delta';
import { warn } from './log';
import { createQueueStore, defaultStorage, readQueue, wipeQueue, type PlacedSegment, type QueueEntry } from './queue-storage';
import { createTransport, online } from './transport';

/**
 * The client half of the autosave protocol: a small state machine with no React in it,
 * composing the queue in device storage (queue-storage), what to send (delta) and the
 * requests (transport).
 *
 * Each session is an entry of the queue: the server's confirmed length and the text after
 * it that the server does not have yet. Nothing is dropped until the server has confirmed
 * it, so offline periods, reloads and crashes lose no text. A page that goes away releases
 * its entries (pagehide) and another page load adopts them, sends what is left and, for
 * stopped sessions, completes them.
 *
 * Queued text belongs to its user: it is sent only with that user's own token (the stored
 * token's subject), never with the token of whoever signed in next on the device.
 *
 * Errors are logged (console.warn), never shown.
 */

export interface AutosaveSnapshot {
  /** The whole transcript so far, read by parts (see TextSource). */
  text: TextSource;
  segments: readonly Segment[];
  durationSec: number;
  language: RecognitionLanguage;
}

export interface AutosaveEngine {
  readonly userId: string;
  start(language: RecognitionLanguage): void;
  update(snapshot: AutosaveSnapshot): void;
  saveNow(): void;
  complete(): void;
  /** Adopts the entries earlier page loads left in device storage and sends them. */
  resumePending(): void;
  /** Logout: sends everything queued and completes every session, the running one included; resolves when nothing is in flight. */
  finish(): Promise<void>;
  /**
   * While the session being recorded is shared live, its deltas go every LIVE_SAVE_INTERVAL_MS
   * (a change waits no longer than that); off, the usual cadence comes back. Completing the
   * session turns it off.
   */
  setLive(on: boolean): void;
  /** The server's id of the session being recorded once it has one; null when none is running. */
  sessionId(): string | null;
  /** Calls `listener` when sessionId() may have changed; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /** Resolves when no request is in flight (tests). */
  idle(): Promise<void>;
  /** Writes the queue, stops timers and listeners. */
  dispose(): void;
}

export interface AutosaveEngineOptions {
  userId: string;
  getToken?: () => string | null;
  storage?: Storage | null;
  now?: () => number;
}

/** 128 random bits (a UUID where the browser makes them): a page's id, and an entry's id, which is also its session key. */
const randomId = () =>
  // randomUUID only exists in secure contexts (https, localhost).
  typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

export function createAutosaveEngine(options: AutosaveEngineOptions): AutosaveEngine {
  const { userId } = options;
  const storedFor = options.getToken ?? storedToken;
  /** The stored token, only when it is this user's: another user's token never carries this queue. */
  const getToken = () => {
    const token = storedFor();
    return token && tokenOwner(token) === userId ? token : null;
  };
  const now = options.now ?? (() => Date.now());
  const me = randomId();
  const queue = createQueueStore({
    storage: options.storage === undefined ? defaultStorage() : options.storage,
    userId,
    owner: me,
    now,
    signedIn: () => getToken() !== null,
  });
  const { entries, persistNow, persistSoon, adoptOrphans, drop } = queue;
  const transport = createTransport({ getToken, now });

  /** The session being recorded (or the last one stopped, which a late final result may still extend). */
  let active: QueueEntry | null = null;
  /** The whole transcript and placed segments of the active session (memory only; a gap is resent from them). */
  let activeText: TextSource = '';
  let activeSegments: PlacedSegment[] = [];
  let placement = NO_PLACEMENT;
  let lastSaveAt = 0;
  let disposed = false;
  /** The active session is shared live: the short cadence. */
  let live = false;
  const listeners = new Set<() => void>();
  const emit = () => {
    for (const listener of listeners) listener();
  };

  let timer: ReturnType<typeof setTimeout> | undefined;
  interface Pass {
    all: boolean;
    keepalive: boolean;
  }
  const running = new Map<string, Promise<void>>();
  const rerun = new Map<string, Pass>();

  // ---- sending ----------------------------------------------------------------------

  /** 409: the server has less than we thought. Resend from its length. */
  function rebase(e: QueueEntry, length: number): void {
    if (e === active && length <= activeText.length) Object.assign(e, resentFrom(activeText, activeSegments, length));
    else {
      // Only the tail survives a reload; keep it rather than lose it.
      warn(`the server lacks text this device no longer has (${length} < ${e.base}); appending the rest at ${length}`);
      Object.assign(e, shiftedTo(e, length));
    }
    persistNow();
  }

  /** One pass: session id, the deltas, then the completion of a stopped session. */
  async function runOnce(e: QueueEntry, { all, keepalive }: Pass): Promise<void> {
    if (disposed || !online() || !getToken() || transport.holding()) return;
    if (!e.sessionId) {
      // Keyed by the entry's id: a request whose answer never arrived (the page went away) or
      // that another page load repeats gets the same session, never a second, empty one.
      const reply = await transport.sessionId(e.id);
      if (transport.refused(reply)) return;
      const sessionId = reply.data?.sessionId;
      if (reply.status !== 200 || typeof sessionId !== 'string') {
        warn('no session id yet; retrying later', reply.status);
        return;
      }
      e.sessionId = sessionId;
      persistNow();
      if (e === active) emit();
    }
    let gaps = 0;
    // A pass sends what was said before it began. Text said while its requests are on their way
    // waits for the next save (the timer), so fast results never chain into a request per result;
    // a stopped session sends it all, then completes.
    const target = totalOf(e);
    let sent = 0;
    const more = () => hasText(e) && (e.stopped || e.base < target);
    const meta = () => (all || e.stopped) && metaChanged(e) && (e.stopped || sent === 0);
    while (entries.has(e.id) && (more() || meta())) {
      sent++;
      if (e === active) {
        lastSaveAt = now();
        armTimer();
      }
      // The first request of a pass started by the page going hidden must outlive the page.
      const fit = keepalive ? keepaliveDelta(e) : undefined;
      const delta = fit ?? nextDelta(e, DELTA_CHUNK_CHARS);
      const before = e.base;
      const reply = await transport.save(delta, fit !== undefined);
      keepalive = false;
      if (transport.refused(reply)) return;
      const length = reply.data?.length;
      if (reply.status === 200 && typeof length === 'number') {
        Object.assign(e, confirmed(e, length), { sentDurationSec: delta.duration, sentLanguage: delta.language });
        persistSoon();
        if (delta.text && e.base === before) return warn('the server did not move forward; retrying later');
        // The connection works: sessions left waiting (failed earlier) go too, without waiting for a quiet tick.
        for (const other of entries.values()) if (other !== e && hasWork(other) && !running.has(other.id)) void flush(other, true);
      } else if (reply.status === 409 && typeof length === 'number' && gaps++ < 3) {
        rebase(e, length);
      } else if (reply.status === 404) {
        warn('the session is gone on the server (deleted?); dropping it');
        return drop(e);
      } else if (reply.status === 400 && delta.segments.length) {
        warn('the server refused the segments; sending the text alone');
        e.segments = [];
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

  /**
   * Runs the entry's work; one pass at a time per entry, a request made meanwhile runs after.
   * `all`: also send a duration or language change without new text.
   */
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

  // ---- timers ----------------------------------------------------------------------

  /** The periodic save: AUTOSAVE_INTERVAL_MS (LIVE_SAVE_INTERVAL_MS while shared live) after the last save of the active session. */
  function armTimer(): void {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (disposed || (entries.size === 0 && (!active || active.stopped))) return;
    timer = setTimeout(tick, live ? LIVE_SAVE_INTERVAL_MS : AUTOSAVE_INTERVAL_MS);
  }

  function tick(): void {
    timer = undefined;
    adoptOrphans();
    persistNow(); // also tells other tabs this page is alive
    for (const e of entries.values()) if (hasWork(e)) void flush(e, true);
    armTimer();
  }

  // ---- page lifecycle --------------------------------------------------------------

  /**
   * The page is going away: write the queue and send, in keepalive requests, what fits
   * (from each session's confirmed length: a later part alone would be a gap). The rest
   * waits in device storage for the next page load.
   */
  function sendBeforeLeaving(): void {
    if (!getToken() || !online()) return;
    for (const e of entries.values()) {
      if (!e.sessionId) continue;
      if (hasText(e) || metaChanged(e)) {
        const delta = keepaliveDelta(e);
        if (delta) void transport.save(delta, true);
      }
      if (e.stopped) void transport.complete(e.sessionId, true);
    }
  }

  const onPageHide = () => {
    queue.release(true);
    sendBeforeLeaving();
  };
  const onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted) queue.release(false);
  };
  /** Hidden (tab switch, lid closed, app switch on a phone): the page may be frozen or killed next. */
  const onVisibility = () => {
    if (document.visibilityState !== 'hidden') return;
    persistNow();
    for (const e of entries.values()) if (hasWork(e) && !running.has(e.id)) void flush(e, true, true);
  };
  const onOnline = () => {
    for (const e of entries.values()) if (hasWork(e)) void flush(e, true);
  };

  if (typeof window !== 'undefined') {
    window.addEventListener('pagehide', onPageHide);
    window.addEventListener('pageshow', onPageShow);
    window.addEventListener('online', onOnline);
    document.addEventListener('visibilitychange', onVisibility);
  }

  // ---- the session -----------------------------------------------------------------

  function setActive(e: QueueEntry | null, text: TextSource = '', segments: PlacedSegment[] = []): void {
    active = e;
    activeText = text;
    activeSegments = segments;
    placement = NO_PLACEMENT;
    emit();
  }

  function start(language: RecognitionLanguage): void {
    if (disposed) return;
    if (active && !active.stopped) complete();
    const e: QueueEntry = {
      id: randomId(),
      userId,
      sessionId: null,
      language,
      durationSec: 0,
      base: 0,
      text: '',
      segments: [],
      edge: '',
      sentDurationSec: 0,
      sentLanguage: null,
      stopped: false,
      owner: me,
      touchedAt: now(),
      changedAt: now(),
    };
    entries.set(e.id, e);
    setActive(e);
    lastSaveAt = now();
    persistNow();
    armTimer();
    // The session id is asked for after the current task: a start followed at once by an
    // update that continues an interrupted session (the card resuming a transcript restored
    // after a reload) continues that session instead of opening an empty one.
    setTimeout(() => {
      if (entries.has(e.id) && !e.sessionId) void flush(e);
    }, 0);
  }

  /** A session just started, with nothing sent or asked for yet. */
  const isFresh = (e: QueueEntry) => e.base === 0 && e.text === '' && !e.sessionId && !running.has(e.id);

  /** After a reload: continue the queued session this transcript extends, if there is one. */
  function resumeFor(text: TextSource, options: { except?: QueueEntry; running?: boolean } = {}): QueueEntry | undefined {
    adoptOrphans();
    return continuedBy(text, entries.values(), options);
  }

  function update(snapshot: AutosaveSnapshot): void {
    if (disposed) return;
    const { text } = snapshot;
    if (active && text.length < totalOf(active)) {
      // Not the same transcript any more (cleared or replaced).
      if (!active.stopped) {
        warn('the transcript shrank within a session; completing it and starting another');
        complete();
      }
      setActive(null);
    }
    if (active && text && isFresh(active)) {
      const resumed = resumeFor(text, { except: active, running: true });
      if (resumed) {
        entries.delete(active.id);
        resumed.language = snapshot.language;
        setActive(resumed);
        persistNow();
      }
    }
    if (!active) {
      if (!text) return;
      const resumed = resumeFor(text);
      if (resumed) {
        setActive(resumed);
        lastSaveAt = now();
      } else start(snapshot.language);
    }
    const e = active!;
    if (e.stopped && !entries.has(e.id)) {
      // A final result after stop: it still belongs to the stopped session.
      if (text.length === totalOf(e)) return;
      entries.set(e.id, e);
    }
    const grew = text.length > totalOf(e);
    activeText = text;
    // The unsent part is taken again each time, so a correction inside it is sent as corrected.
    e.text = text.slice(e.base);
    e.edge = edgeOf(text);
    if (grew) e.changedAt = now();
    const { placed, next } = placeSegments(text, snapshot.segments, placement);
    placement = next;
    for (const s of placed) {
      activeSegments.push(s);
      if (inTail(e, s)) e.segments.push(s);
    }
    e.durationSec = snapshot.durationSec;
    e.language = snapshot.language;
    persistSoon();
    if (grew && (e.stopped || now() - lastSaveAt > (live ? LIVE_SAVE_INTERVAL_MS : AUTOSAVE_MIN_GAP_MS))) void flush(e);
  }

  function saveNow(): void {
    if (disposed || !active) return;
    persistNow();
    void flush(active, true);
  }

  function complete(): void {
    if (disposed || !active || active.stopped) return;
    active.stopped = true;
    live = false;
    persistNow();
    emit();
    void flush(active, true);
  }

  function setLive(on: boolean): void {
    if (disposed || live === on) return;
    live = on && active !== null && !active.stopped;
    armTimer();
    // Sharing starts from what is on screen: text waiting for the slow cadence goes now.
    if (live && active && hasWork(active)) void flush(active);
  }

  const sessionId = () => (active && !active.stopped ? active.sessionId : null);

  function subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  function resumePending(): void {
    if (disposed) return;
    const adopted = adoptOrphans();
    for (const e of entries.values()) if (e !== active && hasWork(e)) void flush(e, true);
    if (adopted.length) armTimer();
  }

  function finish(): Promise<void> {
    if (disposed) return Promise.resolve();
    adoptOrphans();
    // The user is leaving: every session of theirs is over, the one being recorded included.
    for (const e of entries.values()) e.stopped = true;
    live = false;
    persistNow();
    emit();
    for (const e of entries.values()) void flush(e, true);
    return idle();
  }

  async function idle(): Promise<void> {
    while (running.size) await Promise.all([...running.values()]);
  }

  function dispose(): void {
    if (disposed) return;
    queue.release(true);
    disposed = true;
    listeners.clear();
    if (timer !== undefined) clearTimeout(timer);
    queue.dispose();
    if (typeof window !== 'undefined') {
      window.removeEventListener('pagehide', onPageHide);
      window.removeEventListener('pageshow', onPageShow);
      window.removeEventListener('online', onOnline);
      document.removeEventListener('visibilitychange', onVisibility);
    }
  }

  return { userId, start, update, saveNow, complete, resumePending, finish, setLive, sessionId, subscribe, idle, dispose };
}

let current: AutosaveEngine | null = null;

/** Takes nothing: what a user who is no longer signed in on this device gets. */
const inertEngine = (userId: string): AutosaveEngine => ({
  userId,
  start() {},
  update() {},
  saveNow() {},
  complete() {},
  resumePending() {},
  finish: () => Promise.resolve(),
  setLive() {},
  sessionId: () => null,
  subscribe: () => () => undefined,
  idle: () => Promise.resolve(),
  dispose() {},
});

/**
 * The page's one engine for this user (a different user gets a new one; the old one's queue
 * stays in storage, for its user's next sign-in). While the device is not signed in as this
 * user (logged out, or another user signed in meanwhile) it takes nothing.
 */
export function autosaveEngineFor(userId: string): AutosaveEngine {
  if (tokenOwner() !== userId) return inertEngine(userId);
  if (current?.userId !== userId) {
    current?.dispose();
    current = createAutosaveEngine({ userId });
  }
  return current;
}

const hasQueued = (userId: string) => readQueue().some((e) => e.userId === userId);

/** Logout, first step (still signed in): the user's running session is completed and everything queued is sent. */
export function sendBeforeLogout(userId: string): Promise<void> {
  if (current?.userId !== userId && !hasQueued(userId)) return Promise.resolve();
  return autosaveEngineFor(userId).finish();
}

/** Logout, last step: the user's engine stops and the user's queued sessions leave device storage (sent or not). */
export function forgetAutosave(userId: string, storage: Storage | null = defaultStorage()): void {
  if (current?.userId === userId) {
    current.dispose();
    current = null;
  }
  wipeQueue(userId, storage);
}
