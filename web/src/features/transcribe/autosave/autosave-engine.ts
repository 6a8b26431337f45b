import { AUTOSAVE_INTERVAL_MS, AUTOSAVE_MIN_GAP_MS, DEV_BYPASS_HEADER, type RecognitionLanguage } from '@app/shared/constants';
import type { Segment } from '@app/shared/schemas/transcriptions';
import { getDevBypassToken } from '../../../lib/api';
import { getToken as storedToken } from '../../../lib/auth-token';
import { tokenOwner } from '../lib/token-owner';
import { AUTOSAVE_QUEUE_KEY } from './queue-key';

/**
 * The client half of the autosave protocol: a small
 * state machine with no React in it.
 *
 * Each session is an entry of a queue kept in device storage: the server's confirmed
 * length (`base`) and the text after it that the server does not have yet, with the
 * segments that fall in it. Saves send only that tail, as a delta at `base`; the answer
 * moves `base` forward. A retried delta is a no-op on the server; a 409 gap gives the
 * server's length and the tail is resent from there. Nothing is dropped until the
 * server has confirmed it, so offline periods, reloads and crashes lose no text.
 *
 * Entries belong to one page (`owner`) while it runs, so two tabs never send the same
 * session; a page that goes away releases its entries (pagehide) and another page load
 * adopts them, sends what is left and, for stopped sessions, completes them. An entry
 * whose owner stopped touching it for STALE_OWNER_MS (a crash) is adopted too.
 *
 * Queued text belongs to its user: it is sent only with that user's own token (the stored
 * token's subject), never with the token of whoever signed in next on the device.
 *
 * A 503 (maintenance, or the service unavailable) or a 429 keeps everything queued and
 * backs off: no request before RETRY_BACKOFF_MS, doubling up to RETRY_BACKOFF_MAX_MS,
 * then the 30-second tick sends the text once the server takes writes again.
 *
 * Errors are logged (console.warn), never shown.
 */

export interface AutosaveSnapshot {
  text: string;
  segments: readonly Segment[];
  durationSec: number;
  language: RecognitionLanguage;
}

/** A segment with its offset in the transcript (UTF-16 code units). */
interface PlacedSegment extends Segment {
  at: number;
}

export interface QueueEntry {
  /** Local id (a session has no server id until session-id answers). */
  id: string;
  userId: string;
  sessionId: string | null;
  language: RecognitionLanguage;
  durationSec: number;
  /** The server's confirmed length: `text` starts at this offset of the transcript. */
  base: number;
  /** What the server does not have yet. */
  text: string;
  segments: PlacedSegment[];
  /** The last characters of the transcript so far, to recognise it after a reload. */
  edge: string;
  sentDurationSec: number;
  sentLanguage: RecognitionLanguage | null;
  /** complete() was called: send the rest, then complete the session. */
  stopped: boolean;
  owner: string | null;
  /** Last write by the owner (a heartbeat: tabs that stop writing are gone). */
  touchedAt: number;
  /** Last time the transcript grew. */
  changedAt: number;
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

/** Delta size of one request (chars); the server takes at most DELTA_MAX_CHARS (300,000). */
export const DELTA_CHUNK_CHARS = 100_000;
/** Browsers cap the bodies of keepalive requests in flight at 64 KiB. */
export const KEEPALIVE_MAX_BYTES = 60_000;
/** An owner that has not touched its entries for this long is gone (crashed tab). */
export const STALE_OWNER_MS = 3 * 60_000;
/** A session interrupted by a reload and not resumed within a day is over: completed and dropped. */
export const ORPHAN_TTL_MS = 24 * 60 * 60_000;
/** After a 503 or 429, no request for this long; doubled at each refusal in a row, up to the maximum. */
export const RETRY_BACKOFF_MS = AUTOSAVE_INTERVAL_MS;
export const RETRY_BACKOFF_MAX_MS = 5 * 60_000;
const PERSIST_EVERY_MS = 1_000;
const EDGE_CHARS = 64;
const SEGMENT_TEXT_MAX = 10_000;

interface Paths {
  sessionId: string;
  save: string;
  complete: string;
}
let pathsCache: Paths | undefined;
/** The route table is loaded lazily (it carries zod), as the API client does. */
async function loadPaths(): Promise<Paths> {
  if (pathsCache) return pathsCache;
  const { routes } = await import('@app/shared/routes');
  pathsCache = { sessionId: routes.autosaveSessionId.path, save: routes.autosaveSave.path, complete: routes.autosaveComplete.path };
  return pathsCache;
}

interface Reply {
  status: number;
  data: Record<string, unknown> | undefined;
}

const warn = (...args: unknown[]) => console.warn('[autosave]', ...args);
const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;
const randomId = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
const edgeOf = (text: string) => text.slice(Math.max(0, text.length - EDGE_CHARS));
const roundDuration = (seconds: number) => (Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds) : 0);
const totalOf = (e: QueueEntry) => e.base + e.text.length;

function defaultStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function isEntry(value: unknown): value is QueueEntry {
  const e = value as Partial<QueueEntry> | null;
  return (
    typeof e === 'object' && e !== null && typeof e.id === 'string' && typeof e.userId === 'string' &&
    typeof e.base === 'number' && typeof e.text === 'string' && Array.isArray(e.segments) && typeof e.language === 'string'
  );
}

/** Reads the queue; a damaged one counts as empty (never throws). */
export function readQueue(storage: Storage | null = defaultStorage()): QueueEntry[] {
  try {
    const raw = storage?.getItem(AUTOSAVE_QUEUE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? parsed.filter(isEntry) : [];
  } catch {
    return [];
  }
}

export function createAutosaveEngine(options: AutosaveEngineOptions): AutosaveEngine {
  const { userId } = options;
  const storedFor = options.getToken ?? storedToken;
  /** The stored token, only when it is this user's: another user's token never carries this queue. */
  const getToken = () => {
    const token = storedFor();
    return token && tokenOwner(token) === userId ? token : null;
  };
  const storage = options.storage === undefined ? defaultStorage() : options.storage;
  const now = options.now ?? (() => Date.now());
  const me = randomId();

  /** The entries this page owns. */
  const entries = new Map<string, QueueEntry>();
  /** Ids of the entries this page has written to device storage. */
  const written = new Set<string>();
  /** The session being recorded (or the last one stopped, which a late final result may still extend). */
  let active: QueueEntry | null = null;
  /** The whole transcript and placed segments of the active session (memory only; a gap is resent from them). */
  let activeText = '';
  let activeSegments: PlacedSegment[] = [];
  let placedCount = 0;
  let searchFrom = 0;
  let lastSaveAt = 0;
  let released = false;
  let disposed = false;
  /** The server asked to wait (503, 429): no request before this time. */
  let holdUntil = 0;
  let holdFor = 0;

  let timer: ReturnType<typeof setTimeout> | undefined;
  let persistTimer: ReturnType<typeof setTimeout> | undefined;
  let lastPersistAt = -Infinity;
  interface Pass {
    all: boolean;
    keepalive: boolean;
  }
  const running = new Map<string, Promise<void>>();
  const rerun = new Map<string, Pass>();

  // ---- device storage -------------------------------------------------------------

  function persistNow(): void {
    if (persistTimer !== undefined) clearTimeout(persistTimer);
    persistTimer = undefined;
    lastPersistAt = now();
    if (!storage) return;
    const t = now();
    const stored = readQueue(storage);
    if (!getToken()) {
      // No longer signed in as this user: an entry written here that left device storage since
      // was removed by a logout (in another tab) and is forgotten here too, never written back.
      const kept = new Set(stored.map((x) => x.id));
      for (const e of [...entries.values()]) if (written.has(e.id) && !kept.has(e.id)) entries.delete(e.id);
    }
    const others = stored.filter((x) => x.owner !== me && !entries.has(x.id));
    const mine = [...entries.values()].map((e) => {
      written.add(e.id);
      e.owner = released ? null : me;
      e.touchedAt = t;
      return e;
    });
    const all = [...others, ...mine];
    try {
      if (all.length) storage.setItem(AUTOSAVE_QUEUE_KEY, JSON.stringify(all));
      else storage.removeItem(AUTOSAVE_QUEUE_KEY);
    } catch (err) {
      warn('could not write the queue to device storage', err);
    }
  }

  /** Writes at most once a second while text streams in (a long offline tail is large). */
  function persistSoon(): void {
    if (persistTimer !== undefined) return;
    const wait = PERSIST_EVERY_MS - (now() - lastPersistAt);
    if (wait <= 0) persistNow();
    else persistTimer = setTimeout(persistNow, wait);
  }

  /** Takes over entries of this user that no running page owns. */
  function adoptOrphans(): QueueEntry[] {
    const t = now();
    const adopted: QueueEntry[] = [];
    for (const x of readQueue(storage)) {
      if (x.userId !== userId || entries.has(x.id)) continue;
      if (x.owner !== null && x.owner !== me && t - (x.touchedAt ?? 0) < STALE_OWNER_MS) continue;
      // A session interrupted long ago and never resumed is over.
      if (!x.stopped && t - (x.changedAt ?? x.touchedAt ?? 0) > ORPHAN_TTL_MS) x.stopped = true;
      x.owner = me;
      entries.set(x.id, x);
      adopted.push(x);
    }
    if (adopted.length) persistNow();
    return adopted;
  }

  function drop(e: QueueEntry): void {
    entries.delete(e.id);
    persistNow();
  }

  // ---- network --------------------------------------------------------------------

  const online = () => typeof navigator === 'undefined' || navigator.onLine !== false;

  async function call(method: 'GET' | 'POST', path: string, body: string | undefined, keepalive = false): Promise<Reply> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const token = getToken();
    if (!token) return { status: 0, data: undefined };
    headers.authorization = `Bearer ${token}`;
    // A developer past maintenance mode saves as the rest of the app does.
    const bypass = getDevBypassToken();
    if (bypass) headers[DEV_BYPASS_HEADER] = bypass;
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      const response = await fetch(path, { method, headers, body, keepalive });
      const text = await response.text().catch(() => '');
      let data: Record<string, unknown> | undefined;
      try {
        const parsed: unknown = text ? JSON.parse(text) : undefined;
        if (typeof parsed === 'object' && parsed !== null) data = parsed as Record<string, unknown>;
      } catch {
        data = undefined;
      }
      return { status: response.status, data };
    } catch {
      return { status: 0, data: undefined };
    }
  }

  interface Delta {
    sessionId: string;
    offset: number;
    text: string;
    segments: Segment[];
    duration: number;
    language: RecognitionLanguage;
  }

  /** The next delta: from `base`, at most `maxChars`, cut after a whole segment and never inside a surrogate pair. */
  function nextDelta(e: QueueEntry, maxChars: number): Delta {
    let end = Math.min(e.text.length, maxChars);
    if (end < e.text.length) {
      let cut = 0;
      for (const s of e.segments) {
        const segEnd = s.at + s.text.length - e.base;
        if (segEnd > end) break;
        cut = segEnd;
      }
      if (cut > 0) end = cut;
      if (end > 1 && isHighSurrogate(e.text.charCodeAt(end - 1))) end -= 1;
    }
    const limit = e.base + end;
    const segments = e.segments
      .filter((s) => s.at >= e.base && s.at + s.text.length <= limit)
      .map(({ text, startMs, endMs }) => ({ text, startMs, endMs }));
    return {
      sessionId: e.sessionId!,
      offset: e.base,
      text: e.text.slice(0, end),
      segments,
      duration: roundDuration(e.durationSec),
      language: e.language,
    };
  }

  /** A delta whose JSON body fits a keepalive request. */
  function keepaliveBody(e: QueueEntry): string | undefined {
    let chars = Math.min(e.text.length, Math.floor(KEEPALIVE_MAX_BYTES / 4));
    for (;;) {
      const body = JSON.stringify(nextDelta(e, chars));
      if (utf8Bytes(body) <= KEEPALIVE_MAX_BYTES) return body;
      if (chars <= 1) return undefined;
      chars = Math.floor(chars / 2);
    }
  }

  /** The server holds `length` characters: drop them from the tail (a stale answer changes nothing). */
  function confirm(e: QueueEntry, length: number, sent: Delta): void {
    const done = Math.max(0, Math.min(length - e.base, e.text.length));
    e.text = e.text.slice(done);
    e.base += done;
    e.segments = e.segments.filter((s) => s.at >= e.base);
    e.sentDurationSec = sent.duration;
    e.sentLanguage = sent.language;
    persistSoon();
  }

  /** 409: the server has less than we thought. Resend from its length. */
  function rebase(e: QueueEntry, length: number): void {
    if (e === active && length <= activeText.length) {
      e.base = length;
      e.text = activeText.slice(length);
      e.segments = activeSegments.filter((s) => s.at >= length);
    } else {
      // Only the tail survives a reload; keep it rather than lose it.
      warn(`the server lacks text this device no longer has (${length} < ${e.base}); appending the rest at ${length}`);
      const shift = length - e.base;
      e.base = length;
      e.segments = e.segments.map((s) => ({ ...s, at: s.at + shift }));
    }
    persistNow();
  }

  /** A 503 or 429 leaves everything queued: wait, longer at each refusal in a row. Any other answer ends the wait. */
  function noteReply(reply: Reply): boolean {
    if (reply.status !== 503 && reply.status !== 429) {
      if (reply.status !== 0) holdFor = 0;
      return false;
    }
    holdFor = Math.min(Math.max(holdFor * 2, RETRY_BACKOFF_MS), RETRY_BACKOFF_MAX_MS);
    holdUntil = now() + holdFor;
    const why = reply.data?.code === 'maintenance' ? 'the service is in maintenance' : `the server refused for now (${reply.status})`;
    warn(`${why}; the text stays queued, next try in ${Math.round(holdFor / 1000)} s`);
    return true;
  }

  const hasText = (e: QueueEntry) => e.text.length > 0;
  const metaChanged = (e: QueueEntry) => roundDuration(e.durationSec) !== e.sentDurationSec || e.language !== e.sentLanguage;
  const hasWork = (e: QueueEntry) => !e.sessionId || hasText(e) || metaChanged(e) || e.stopped;

  /** One pass: session id, the deltas, then the completion of a stopped session. */
  async function runOnce(e: QueueEntry, { all, keepalive }: Pass): Promise<void> {
    if (disposed || !online() || !getToken() || now() < holdUntil) return;
    const paths = await loadPaths();
    if (!e.sessionId) {
      const reply = await call('GET', paths.sessionId, undefined);
      if (noteReply(reply)) return;
      const sessionId = reply.data?.sessionId;
      if (reply.status !== 200 || typeof sessionId !== 'string') {
        warn('no session id yet; retrying later', reply.status);
        return;
      }
      e.sessionId = sessionId;
      persistNow();
    }
    let gaps = 0;
    while (entries.has(e.id) && (hasText(e) || ((all || e.stopped) && metaChanged(e)))) {
      if (e === active) {
        lastSaveAt = now();
        armTimer();
      }
      // The first request of a pass started by the page going hidden must outlive the page.
      const body = keepalive ? keepaliveBody(e) : undefined;
      const delta = body ? (JSON.parse(body) as Delta) : nextDelta(e, DELTA_CHUNK_CHARS);
      const before = e.base;
      const reply = await call('POST', paths.save, body ?? JSON.stringify(delta), keepalive && body !== undefined);
      keepalive = false;
      if (noteReply(reply)) return;
      const length = reply.data?.length;
      if (reply.status === 200 && typeof length === 'number') {
        confirm(e, length, delta);
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
      const reply = await call('POST', paths.complete, JSON.stringify({ sessionId: e.sessionId }), keepalive);
      if (noteReply(reply)) return;
      if (reply.status === 200 || reply.status === 404) {
        // The entry stays the active one (a late final result may extend it) but leaves the queue.
        drop(e);
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

  /** The 30-second save: AUTOSAVE_INTERVAL_MS after the last save of the active session. */
  function armTimer(): void {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (disposed || (entries.size === 0 && (!active || active.stopped))) return;
    timer = setTimeout(tick, AUTOSAVE_INTERVAL_MS);
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
    if (!pathsCache || !getToken() || !online()) return;
    const paths = pathsCache;
    for (const e of entries.values()) {
      if (!e.sessionId) continue;
      if (hasText(e) || metaChanged(e)) {
        const body = keepaliveBody(e);
        if (body) void call('POST', paths.save, body, true);
      }
      if (e.stopped) void call('POST', paths.complete, JSON.stringify({ sessionId: e.sessionId }), true);
    }
  }

  const onPageHide = () => {
    released = true;
    persistNow();
    sendBeforeLeaving();
  };
  const onPageShow = (event: PageTransitionEvent) => {
    if (!event.persisted) return;
    released = false;
    persistNow();
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

  function setActive(e: QueueEntry | null, text = '', segments: PlacedSegment[] = []): void {
    active = e;
    activeText = text;
    activeSegments = segments;
    placedCount = 0;
    searchFrom = 0;
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
  function resumeFor(text: string, options: { except?: QueueEntry; running?: boolean } = {}): QueueEntry | undefined {
    adoptOrphans();
    let best: QueueEntry | undefined;
    for (const e of entries.values()) {
      if (e === options.except || (options.running && (e.stopped || totalOf(e) === 0))) continue;
      const total = totalOf(e);
      if (total > text.length || text.slice(total - e.edge.length, total) !== e.edge) continue;
      if (!best || total > totalOf(best) || (best.stopped && !e.stopped)) best = e;
    }
    return best;
  }

  function placeSegments(e: QueueEntry, segments: readonly Segment[]): void {
    if (segments.length < placedCount) placedCount = 0;
    for (let i = placedCount; i < segments.length; i++) {
      const s = segments[i]!;
      if (!s.text) continue;
      const at = activeText.indexOf(s.text, searchFrom);
      if (at < 0) continue;
      searchFrom = at + s.text.length;
      const placed: PlacedSegment = {
        text: s.text.slice(0, SEGMENT_TEXT_MAX),
        startMs: Math.max(0, Math.round(s.startMs)),
        endMs: Math.max(0, Math.round(s.endMs)),
        at,
      };
      activeSegments.push(placed);
      const last = e.segments.at(-1);
      if (at >= e.base && (!last || at >= last.at + last.text.length)) e.segments.push(placed);
    }
    placedCount = segments.length;
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
    placeSegments(e, snapshot.segments);
    e.durationSec = snapshot.durationSec;
    e.language = snapshot.language;
    persistSoon();
    if (grew && (e.stopped || now() - lastSaveAt > AUTOSAVE_MIN_GAP_MS)) void flush(e);
  }

  function saveNow(): void {
    if (disposed || !active) return;
    persistNow();
    void flush(active, true);
  }

  function complete(): void {
    if (disposed || !active || active.stopped) return;
    active.stopped = true;
    persistNow();
    void flush(active, true);
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
    persistNow();
    for (const e of entries.values()) void flush(e, true);
    return idle();
  }

  async function idle(): Promise<void> {
    while (running.size) await Promise.all([...running.values()]);
  }

  function dispose(): void {
    if (disposed) return;
    released = true;
    persistNow();
    disposed = true;
    if (timer !== undefined) clearTimeout(timer);
    if (persistTimer !== undefined) clearTimeout(persistTimer);
    if (typeof window !== 'undefined') {
      window.removeEventListener('pagehide', onPageHide);
      window.removeEventListener('pageshow', onPageShow);
      window.removeEventListener('online', onOnline);
      document.removeEventListener('visibilitychange', onVisibility);
    }
  }

  return { userId, start, update, saveNow, complete, resumePending, finish, idle, dispose };
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
  const queue = readQueue(storage);
  const kept = queue.filter((e) => e.userId !== userId);
  if (kept.length === queue.length) return;
  try {
    if (kept.length) storage?.setItem(AUTOSAVE_QUEUE_KEY, JSON.stringify(kept));
    else storage?.removeItem(AUTOSAVE_QUEUE_KEY);
  } catch (err) {
    warn('could not write the queue to device storage', err);
  }
}
