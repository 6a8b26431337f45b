import type { RecognitionLanguage } from '@app/shared/constants';
import type { Segment } from '@app/shared/schemas/transcriptions';
import { warn } from './log';
import { AUTOSAVE_QUEUE_KEY } from './queue-key';

/**
 * The autosave queue in device storage (localStorage): one entry per session, with the
 * protocol's state only: the device transcript it belongs to, the server's confirmed length
 * (`base`) and the transcript's length (`length`). The text between them, which the server does
 * not have yet, is read from the device transcript itself (lib/recovery), never copied here.
 *
 * Entries belong to one page (`owner`) while it runs, so two tabs never send the same
 * session; a page that goes away releases its entries and another page load adopts them.
 * An entry whose owner stopped touching it for STALE_OWNER_MS (a crash) is adopted too.
 * Every entry carries its user's id: a page adopts only its own user's entries.
 *
 * The previous version of the app kept the unsent text in the entry itself and named no device
 * transcript; such an entry, still on the device after an upgrade, is read with that text as its
 * inline tail and sent from it like any other (new entries are never written so).
 */

/** A segment with its offset in the transcript (UTF-16 code units). */
export interface PlacedSegment extends Segment {
  at: number;
}

export interface QueueEntry {
  /**
   * Local id, made before any request and stored with the text: also the session's idempotency
   * key, so every session-id request for this entry (a retry, another page load) gets one session.
   */
  id: string;
  userId: string;
  sessionId: string | null;
  /**
   * The device transcript (lib/recovery) whose text this session sends; after a reload, the
   * restored transcript continues it. Null for an entry the previous version wrote: it sends its `inline` tail.
   */
  transcript: string | null;
  language: RecognitionLanguage;
  durationSec: number;
  /**
   * The server's confirmed length. Lengths and offsets count UTF-16 code units of the transcript's
   * text as the transcript store joins its segments (TextSource).
   */
  base: number;
  /** The transcript's length as far as this session has seen it: from `base` to here is what the server lacks. */
  length: number;
  sentDurationSec: number;
  sentLanguage: RecognitionLanguage | null;
  /** complete() was called: send the rest, then complete the session. */
  stopped: boolean;
  /** Its owner page is recording into its transcript (the device copy is still growing). */
  recording: boolean;
  owner: string | null;
  /** Last write by the owner (a heartbeat: tabs that stop writing are gone). */
  touchedAt: number;
  /** Last time the transcript grew. */
  changedAt: number;
  /** The unsent text an entry the previous version wrote carries itself (it has no device transcript). */
  inline?: InlineTail;
}

/** Unsent text kept in the entry: `text` sits at offset `at` of the transcript, whose earlier text this device no longer has. */
export interface InlineTail {
  at: number;
  text: string;
  /** The segments placed in `text`, each `at` an offset in the transcript. */
  segments: PlacedSegment[];
}

/** An owner that has not touched its entries for this long is gone (crashed tab). */
export const STALE_OWNER_MS = 3 * 60_000;
/** A session interrupted by a reload and not resumed within a day is over: completed and dropped. */
export const ORPHAN_TTL_MS = 24 * 60 * 60_000;
const PERSIST_EVERY_MS = 1_000;

export function defaultStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const isInline = (tail: Partial<InlineTail> | undefined) =>
  typeof tail === 'object' && tail !== null && typeof tail.at === 'number' && typeof tail.text === 'string' && Array.isArray(tail.segments);

function isEntry(value: unknown): value is QueueEntry {
  const e = value as Partial<QueueEntry> | null;
  return (
    typeof e === 'object' && e !== null && typeof e.id === 'string' && typeof e.userId === 'string' &&
    (typeof e.transcript === 'string' || (e.transcript === null && isInline(e.inline))) &&
    typeof e.base === 'number' && typeof e.length === 'number' && typeof e.language === 'string'
  );
}

/** The previous version's entry: its unsent `text` (from `base`) and the `segments` placed in it, with no device transcript. */
interface PreviousEntry {
  base: number;
  text: string;
  segments?: unknown;
  edge?: unknown;
}

const isPrevious = (value: unknown): value is PreviousEntry =>
  typeof value === 'object' && value !== null && !('transcript' in value) &&
  typeof (value as Partial<PreviousEntry>).text === 'string' && typeof (value as Partial<PreviousEntry>).base === 'number';

const isPlaced = (s: unknown): s is PlacedSegment =>
  typeof s === 'object' && s !== null && typeof (s as PlacedSegment).text === 'string' && typeof (s as PlacedSegment).at === 'number' &&
  typeof (s as PlacedSegment).startMs === 'number' && typeof (s as PlacedSegment).endMs === 'number';

/** An entry the previous version wrote, as this one reads it: its text becomes its inline tail, from `base` on. */
function upgraded(value: unknown): unknown {
  if (!isPrevious(value)) return value;
  const { text, segments, edge: _edge, ...rest } = value;
  const placed = Array.isArray(segments) ? segments.filter(isPlaced) : [];
  return { ...rest, transcript: null, length: value.base + text.length, recording: false, inline: { at: value.base, text, segments: placed } };
}

/** Reads the queue; a damaged one counts as empty (never throws). */
export function readQueue(storage: Storage | null = defaultStorage()): QueueEntry[] {
  try {
    const raw = storage?.getItem(AUTOSAVE_QUEUE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? parsed.map(upgraded).filter(isEntry) : [];
  } catch {
    return [];
  }
}

/** Writes the queue (an empty one leaves device storage); a full or blocked storage is logged. */
function writeQueue(storage: Storage | null, queue: readonly QueueEntry[]): void {
  try {
    if (queue.length) storage?.setItem(AUTOSAVE_QUEUE_KEY, JSON.stringify(queue));
    else storage?.removeItem(AUTOSAVE_QUEUE_KEY);
  } catch (err) {
    warn('could not write the queue to device storage', err);
  }
}

/** Removes a user's entries from device storage, sent or not. */
export function wipeQueue(userId: string, storage: Storage | null = defaultStorage()): void {
  const queue = readQueue(storage);
  const kept = queue.filter((e) => e.userId !== userId);
  if (kept.length !== queue.length) writeQueue(storage, kept);
}

export interface QueueStore {
  /** The entries this page owns. */
  readonly entries: Map<string, QueueEntry>;
  /** Writes this page's entries next to the other pages' ones. */
  persistNow(): void;
  /** Writes at most once a second while text streams in. */
  persistSoon(): void;
  /** Takes over entries of this user that no running page owns. */
  adoptOrphans(): QueueEntry[];
  /** Forgets an entry (confirmed and completed, or refused for good). */
  drop(e: QueueEntry): void;
  /** The page is going away (true) or is back from the back/forward cache (false): its entries are written unowned or owned. */
  release(released: boolean): void;
  /** Stops the pending write. */
  dispose(): void;
}

export interface QueueStoreOptions {
  storage: Storage | null;
  userId: string;
  /** This page's id, the owner tag of its entries. */
  owner: string;
  now: () => number;
  /** The device is still signed in as this user. */
  signedIn: () => boolean;
}

export function createQueueStore({ storage, userId, owner, now, signedIn }: QueueStoreOptions): QueueStore {
  const entries = new Map<string, QueueEntry>();
  /** Ids of the entries this page has written to device storage. */
  const written = new Set<string>();
  let released = false;
  let persistTimer: ReturnType<typeof setTimeout> | undefined;
  let lastPersistAt = -Infinity;

  function persistNow(): void {
    if (persistTimer !== undefined) clearTimeout(persistTimer);
    persistTimer = undefined;
    lastPersistAt = now();
    if (!storage) return;
    const t = now();
    const stored = readQueue(storage);
    if (!signedIn()) {
      // No longer signed in as this user: an entry written here that left device storage since
      // was removed by a logout (in another tab) and is forgotten here too, never written back.
      const kept = new Set(stored.map((x) => x.id));
      for (const e of [...entries.values()]) if (written.has(e.id) && !kept.has(e.id)) entries.delete(e.id);
    }
    const others = stored.filter((x) => x.owner !== owner && !entries.has(x.id));
    const mine = [...entries.values()].map((e) => {
      written.add(e.id);
      e.owner = released ? null : owner;
      e.touchedAt = t;
      return e;
    });
    writeQueue(storage, [...others, ...mine]);
  }

  function persistSoon(): void {
    if (persistTimer !== undefined) return;
    const wait = PERSIST_EVERY_MS - (now() - lastPersistAt);
    if (wait <= 0) persistNow();
    else persistTimer = setTimeout(persistNow, wait);
  }

  function adoptOrphans(): QueueEntry[] {
    const t = now();
    const adopted: QueueEntry[] = [];
    for (const x of readQueue(storage)) {
      if (x.userId !== userId || entries.has(x.id)) continue;
      if (x.owner !== null && x.owner !== owner && t - (x.touchedAt ?? 0) < STALE_OWNER_MS) continue;
      // A session interrupted long ago and never resumed is over.
      if (!x.stopped && t - (x.changedAt ?? x.touchedAt ?? 0) > ORPHAN_TTL_MS) x.stopped = true;
      x.owner = owner;
      // Not recorded here: its transcript is kept only while the server lacks some of it.
      x.recording = false;
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

  function release(value: boolean): void {
    released = value;
    persistNow();
  }

  function dispose(): void {
    if (persistTimer !== undefined) clearTimeout(persistTimer);
  }

  return { entries, persistNow, persistSoon, adoptOrphans, drop, release, dispose };
}
