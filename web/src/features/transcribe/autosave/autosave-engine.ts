import type { RecognitionLanguage } from '@app/shared/constants';
import type { Segment } from '@app/shared/schemas/transcriptions';
import { getSessionUser } from '../../../lib/auth-token';
import { readTranscript, releaseTranscript } from '../lib/recovery';
import { separatorFor, TranscriptStore, type TextSource } from '../lib/transcript-store';
import { continuedBy, hasText, hasWork, inlineSource, NO_PLACEMENT, placeSegments, totalOf, type Source } from './delta';
import { createCadence } from './cadence';
import { onPageLifecycle } from './page-lifecycle';
import { warn } from './log';
import { needsTranscript } from './queue-key';
import { createQueueStore, defaultStorage, readQueue, wipeQueue, type PlacedSegment, type QueueEntry } from './queue-storage';
import { createSender } from './sender';
import { createTransport } from './transport';

/**
 * The client half of the autosave protocol, with no React in it: the session being recorded
 * (this module), composing the queue in device storage (queue-storage), what to send (delta),
 * the requests (transport), the protocol passes over the queue (sender), when to save
 * (cadence) and the page events (page-lifecycle). AutosaveEngine is the one interface its
 * callers use; the transcription controller loads this module itself, for signed-in users.
 *
 * Each session is an entry of the queue: the server's confirmed length and the transcript's
 * length; the text between them, which the server does not have yet, is read from the device
 * transcript (lib/recovery: the session being recorded from memory, others from device
 * storage), which keeps it until the server has confirmed it, so offline periods, reloads and
 * crashes lose no text (an entry the previous version of the app left carries that text itself,
 * and is sent from it: see queue-storage). A page that goes away releases
 * its entries (pagehide) and another page load adopts them, sends what is left and, for
 * stopped sessions, completes them.
 *
 * Queued text belongs to its user: it is sent only while the device is signed in as that user
 * (whose session the cookie is), never in the session of whoever signed in next on the device.
 *
 * Errors are logged (console.warn), never shown.
 */

export interface AutosaveSnapshot {
  /** The device transcript (lib/recovery) being recorded. */
  transcript: string;
  /** The whole transcript so far, read by parts (see TextSource). */
  text: TextSource;
  segments: readonly Segment[];
  durationSec: number;
  language: RecognitionLanguage;
}

export interface AutosaveEngine {
  readonly userId: string;
  /** A new session, sending the device transcript `transcript`. */
  start(language: RecognitionLanguage, transcript: string): void;
  update(snapshot: AutosaveSnapshot): void;
  saveNow(): void;
  complete(): void;
  /** Adopts the entries earlier page loads left in device storage and sends them. */
  resumePending(): void;
  /** Logout: sends everything queued and completes every session, the running one included; resolves when nothing is in flight. */
  finish(): Promise<void>;
  /**
   * While the session being recorded is shared live, each change goes at once, no sooner than
   * LIVE_SAVE_INTERVAL_MS after the last save (a change waits no longer than that); off, the
   * usual cadence comes back. Completing the
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
  /** Whom the device is signed in as (by default the stored session user). */
  sessionUser?: () => string | null;
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
  const signedInAs = options.sessionUser ?? getSessionUser;
  /** This user's id while the device is signed in as them: another user's session never carries this queue. */
  const sessionUser = () => (signedInAs() === userId ? userId : null);
  const now = options.now ?? (() => Date.now());
  const me = randomId();
  const queue = createQueueStore({
    storage: options.storage === undefined ? defaultStorage() : options.storage,
    userId,
    owner: me,
    now,
    signedIn: () => sessionUser() !== null,
  });
  const { entries, persistNow, persistSoon, adoptOrphans } = queue;

  /** The session being recorded (or the last one stopped, which a late final result may still extend). */
  let active: QueueEntry | null = null;
  /** The text of the active session: the transcript being recorded, in memory, and its segments as placed so far. */
  let activeSource: Source = { text: '', segments: [], segmentsFrom: 0 };
  let activeSegments: PlacedSegment[] = [];
  let placement = NO_PLACEMENT;
  /** The text of the other sessions, read from device storage once (or kept from when they were active). */
  const sources = new Map<string, Source>();
  const loading = new Map<string, Promise<Source | null>>();
  let disposed = false;
  const listeners = new Set<() => void>();
  const emit = () => {
    for (const listener of listeners) listener();
  };

  /** The device transcript `e` reads: its final text joined as the transcript store joins it, and its segments placed in it. */
  function load(e: QueueEntry): Promise<Source | null> {
    const { transcript } = e;
    if (transcript === null) return Promise.resolve(null);
    let read = loading.get(e.id);
    if (!read) {
      read = readTranscript(transcript).then((found) => {
        // Queued text belongs to its user: another user's transcript is never sent for this one.
        if (!found || found.meta.userId !== userId) return null;
        const store = new TranscriptStore();
        store.setSeparator(separatorFor(found.meta.language));
        store.load(found.segments);
        const text = store.text;
        const source: Source = { text, segments: placeSegments(text, store.segments, NO_PLACEMENT).placed, segmentsFrom: 0 };
        sources.set(e.id, source);
        return source;
      });
      loading.set(e.id, read);
      // A failed read is tried again next time.
      void read.finally(() => loading.delete(e.id)).catch(() => undefined);
    }
    return read;
  }

  function sourceNow(e: QueueEntry): Source | null {
    if (e === active) return activeSource;
    const known = sources.get(e.id);
    if (known || !e.inline) return known ?? null;
    // An entry the previous version wrote carries its unsent text itself.
    const own = inlineSource(e.inline);
    sources.set(e.id, own);
    return own;
  }

  /** `e` may no longer need its device transcript (confirmed, dropped, no longer recorded): it leaves the device unless something still reads it. */
  function letGo(e: QueueEntry): void {
    if (entries.has(e.id) && needsTranscript(e)) return;
    if (e.inline && !hasText(e)) {
      // Text an entry carries itself leaves the device once the server has it, as a device transcript does.
      e.inline = { at: e.length, text: '', segments: [] };
      sources.delete(e.id);
    }
    persistNow();
    if (e.transcript !== null) releaseTranscript(e.transcript).catch((err: unknown) => warn('could not remove a sent transcript from device storage', err));
  }

  const sender = createSender({
    queue: {
      ...queue,
      drop(e) {
        queue.drop(e);
        sources.delete(e.id);
        letGo(e);
      },
    },
    transport: createTransport({ sessionUser, now }),
    sessionUser,
    stopped: () => disposed,
    source: (e) => {
      const known = sourceNow(e);
      return known ? Promise.resolve(known) : load(e);
    },
    sourceNow,
    onSend: (e) => {
      if (e !== active) return;
      cadence.mark();
      cadence.arm();
    },
    onSessionId: (e) => {
      if (e === active) emit();
    },
    onConfirmed: (e) => {
      if (e !== active && !hasText(e)) letGo(e);
    },
  });
  const { flush } = sender;

  const cadence = createCadence({
    now,
    idle: () => disposed || (entries.size === 0 && (!active || active.stopped)),
    tick: () => {
      adoptOrphans();
      persistNow(); // also tells other tabs this page is alive
      for (const e of entries.values()) if (hasWork(e)) void flush(e, true);
    },
  });

  const stopListening = onPageLifecycle({
    // The page is going away: the queue is written unowned, and what fits goes in keepalive requests.
    leave: () => {
      queue.release(true);
      sender.sendBeforeLeaving();
    },
    back: () => queue.release(false),
    hidden: () => {
      persistNow();
      for (const e of entries.values()) if (hasWork(e) && !sender.busy(e)) void flush(e, true, true);
    },
    online: () => {
      for (const e of entries.values()) if (hasWork(e)) void flush(e, true);
    },
  });

  function setActive(e: QueueEntry | null): void {
    const previous = active;
    if (previous && previous !== e) {
      // Its text stays at hand for the passes still to come.
      previous.recording = false;
      if (entries.has(previous.id)) sources.set(previous.id, activeSource);
    }
    active = e;
    activeSegments = [];
    activeSource = { text: '', segments: activeSegments, segmentsFrom: 0 };
    placement = NO_PLACEMENT;
    if (e) {
      e.recording = true;
      sources.delete(e.id);
    }
    if (previous && previous !== e) letGo(previous);
    emit();
  }

  function start(language: RecognitionLanguage, transcript: string): void {
    if (disposed) return;
    if (active && !active.stopped) complete();
    const e: QueueEntry = {
      id: randomId(),
      userId,
      sessionId: null,
      transcript,
      language,
      durationSec: 0,
      base: 0,
      length: 0,
      sentDurationSec: 0,
      sentLanguage: null,
      stopped: false,
      recording: true,
      owner: me,
      touchedAt: now(),
      changedAt: now(),
    };
    entries.set(e.id, e);
    setActive(e);
    cadence.mark();
    persistNow();
    cadence.arm();
    // The session id is asked for after the current task: a start followed at once by an
    // update that continues an interrupted session (the card resuming a transcript restored
    // after a reload) continues that session instead of opening an empty one.
    setTimeout(() => {
      if (entries.has(e.id) && !e.sessionId) void flush(e);
    }, 0);
  }

  /** A session just started, with nothing sent or asked for yet. */
  const isFresh = (e: QueueEntry) => e.base === 0 && e.length === 0 && !e.sessionId && !sender.busy(e);

  /** After a reload: continue the queued session of this device transcript, if there is one. */
  function resumeFor(snapshot: AutosaveSnapshot, options: { except?: QueueEntry; running?: boolean } = {}): QueueEntry | undefined {
    adoptOrphans();
    return continuedBy(snapshot.transcript, snapshot.text.length, entries.values(), options);
  }

  function update(snapshot: AutosaveSnapshot): void {
    if (disposed) return;
    const { text } = snapshot;
    if (active && (snapshot.transcript !== active.transcript || text.length < totalOf(active))) {
      if (!active.stopped) {
        warn('not the same transcript any more (cleared or replaced); completing the session and starting another');
        complete();
      }
      setActive(null);
    }
    if (active && text.length && isFresh(active)) {
      const resumed = resumeFor(snapshot, { except: active, running: true });
      if (resumed) {
        entries.delete(active.id);
        resumed.language = snapshot.language;
        setActive(resumed);
        persistNow();
      }
    }
    if (!active) {
      if (!text.length) return;
      const resumed = resumeFor(snapshot);
      if (resumed) {
        setActive(resumed);
        cadence.mark();
      } else start(snapshot.language, snapshot.transcript);
    }
    const e = active!;
    if (e.stopped && !entries.has(e.id)) {
      // A final result after stop: it still belongs to the stopped session.
      if (text.length === totalOf(e)) return;
      entries.set(e.id, e);
    }
    const grew = text.length > totalOf(e);
    // The unsent part is read from the transcript when sent, so a correction inside it is sent as corrected.
    activeSource.text = text;
    e.length = text.length;
    if (grew) e.changedAt = now();
    const { placed, next } = placeSegments(text, snapshot.segments, placement);
    placement = next;
    for (const s of placed) activeSegments.push(s);
    e.durationSec = snapshot.durationSec;
    e.language = snapshot.language;
    persistSoon();
    if (grew && (e.stopped || cadence.due())) void flush(e);
  }

  function saveNow(): void {
    if (disposed || !active) return;
    persistNow();
    void flush(active, true);
  }

  function complete(): void {
    if (disposed || !active || active.stopped) return;
    active.stopped = true;
    cadence.setLive(false);
    persistNow();
    emit();
    void flush(active, true);
  }

  function setLive(on: boolean): void {
    if (disposed || cadence.live === on) return;
    cadence.setLive(on && active !== null && !active.stopped);
    cadence.arm();
    // Sharing starts from what is on screen: text waiting for the slow cadence goes now.
    if (cadence.live && active && hasWork(active)) void flush(active);
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
    if (adopted.length) cadence.arm();
  }

  function finish(): Promise<void> {
    if (disposed) return Promise.resolve();
    adoptOrphans();
    // The user is leaving: every session of theirs is over, the one being recorded included.
    for (const e of entries.values()) e.stopped = true;
    cadence.setLive(false);
    persistNow();
    emit();
    for (const e of entries.values()) void flush(e, true);
    return sender.idle();
  }

  function dispose(): void {
    if (disposed) return;
    queue.release(true);
    disposed = true;
    listeners.clear();
    cadence.stop();
    queue.dispose();
    stopListening();
  }

  return { userId, start, update, saveNow, complete, resumePending, finish, setLive, sessionId, subscribe, idle: sender.idle, dispose };
}

let current: AutosaveEngine | null = null;

/** Takes nothing: what a user who is no longer signed in on this device gets (and what test fakes start from). */
export const inertEngine = (userId: string): AutosaveEngine => ({
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
  if (getSessionUser() !== userId) return inertEngine(userId);
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
