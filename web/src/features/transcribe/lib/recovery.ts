import { RECOGNITION_LANGUAGES, type RecognitionLanguage } from '@app/shared/constants';
import type { Segment } from '@app/shared/schemas/transcriptions';
import { readStorage, writeStorage } from '../../../lib/storage';
import { hasRecoveryMarker, setRecoveryMarker } from './recovery-marker';

/**
 * "Nothing lost": the current transcript's final segments are written to device
 * storage in batches, off the result path (a result only queues its segment; the
 * write runs in the browser's idle time, at most FLUSH_DELAY_MS + IDLE_TIMEOUT_MS
 * later), and whatever is not yet written (plus the interim text) goes to
 * localStorage synchronously on `pagehide`. After a reload or crash the card
 * offers to restore it.
 *
 * The copy belongs to the user who recorded it (null: a visitor) and is offered back only to
 * that same user or visitor; a logout removes it (forgetRecovery).
 */

export interface RecoveryMeta {
  /** One id per transcription. */
  id: string;
  /** Who recorded it: the signed-in user's id, or null for a visitor. */
  userId: string | null;
  language: RecognitionLanguage;
  /** When recording started (ISO). */
  startedAt: string;
  /** Session clock at the last write. */
  durationMs: number;
}

export interface RecoveredTranscript {
  meta: RecoveryMeta;
  segments: Segment[];
}

export interface RecoveryStore {
  /** A new transcription: forgets the previous one. */
  begin(meta: Omit<RecoveryMeta, 'durationMs'>): void;
  /** Takes over a restored transcription (writes continue after its segments). */
  adopt(recovered: RecoveredTranscript): void;
  append(segment: Segment): void;
  setDuration(ms: number): void;
  /** Writes what is queued (async). */
  flush(): Promise<void>;
  /** Page is going away: what is not yet written, and the interim text, go to localStorage now. */
  flushSync(interim: string): void;
  /** The page came back from the back/forward cache: the pagehide copy is stale. */
  pageShown(): void;
  /** The transcription was saved or cleared: nothing to recover. */
  discard(): void;
  /** The signed-in user changed: what is pending is written for its owner, and nothing more is written. */
  detach(): void;
  /** The transcript left on this device, only when `owner` (a user id, or null for a visitor) recorded it. */
  load(owner: string | null): Promise<RecoveredTranscript | null>;
}

const DB_NAME = 'live-transcribe';
const DB_VERSION = 1;
const META = 'recovery-meta';
const SEGMENTS = 'recovery-segments';
const META_KEY = 'current';
/** localStorage: the unwritten tail at pagehide, or everything when IndexedDB is unavailable. */
const TAIL_KEY = 'transcribe.recovery';
const FLUSH_DELAY_MS = 250;
/** The longest a due write waits for idle time. */
const IDLE_TIMEOUT_MS = 500;
/** Without IndexedDB the whole copy is rewritten, so less often. */
const LOCAL_FLUSH_DELAY_MS = 1000;

/**
 * Runs `write` after `delayMs`, in the browser's idle time once due (so it never competes with
 * a frame); returns a cancel function.
 */
function later(delayMs: number, write: () => void): () => void {
  let idle: number | undefined;
  const timer = setTimeout(() => {
    if (typeof requestIdleCallback === 'function') idle = requestIdleCallback(write, { timeout: IDLE_TIMEOUT_MS });
    else write();
  }, delayMs);
  return () => {
    clearTimeout(timer);
    if (idle !== undefined) cancelIdleCallback(idle);
  };
}

interface StoredSegment extends Segment {
  sid: string;
  seq: number;
}

interface Tail {
  meta: RecoveryMeta;
  /** Segments from `from` on (sequence numbers). */
  from: number;
  segments: Segment[];
  interim: string;
}

const isLanguage = (v: unknown): v is RecognitionLanguage => (RECOGNITION_LANGUAGES as readonly unknown[]).includes(v);
const isSegment = (v: unknown): v is Segment =>
  typeof v === 'object' && v !== null && typeof (v as Segment).text === 'string' && Number.isFinite((v as Segment).startMs) && Number.isFinite((v as Segment).endMs);

function isMeta(v: unknown): v is RecoveryMeta {
  const m = v as RecoveryMeta;
  return (
    typeof v === 'object' && v !== null && typeof m.id === 'string' && (m.userId === null || typeof m.userId === 'string') &&
    isLanguage(m.language) && typeof m.startedAt === 'string' && Number.isFinite(m.durationMs)
  );
}

const ownedBy = (found: RecoveredTranscript | null, owner: string | null) => (found?.meta.userId === owner ? found : null);

/** Stores holding a transcript in memory (begun or adopted), so a logout can stop their writes. */
const live = new Set<IdbRecovery | LocalRecovery>();

function readTail(): Tail | null {
  const raw = readStorage(TAIL_KEY);
  if (!raw) return null;
  try {
    const tail = JSON.parse(raw) as Tail;
    if (!isMeta(tail.meta) || !Array.isArray(tail.segments) || !tail.segments.every(isSegment) || !Number.isInteger(tail.from)) return null;
    return { ...tail, interim: typeof tail.interim === 'string' ? tail.interim : '' };
  } catch {
    return null;
  }
}

const request = <T>(req: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });

const done = (tx: IDBTransaction) =>
  new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, DB_VERSION);
    req.onupgradeneeded = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains(META)) db.createObjectStore(META);
      if (!db.objectStoreNames.contains(SEGMENTS)) db.createObjectStore(SEGMENTS, { keyPath: ['sid', 'seq'] });
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB unavailable'));
    req.onblocked = () => reject(new Error('IndexedDB blocked'));
  });
}

/** Merges the IndexedDB copy with a localStorage tail of the same transcription. */
function merge(meta: RecoveryMeta | null, storedSegments: Segment[], tail: Tail | null): RecoveredTranscript | null {
  let result: RecoveredTranscript | null = meta ? { meta, segments: storedSegments } : null;
  if (tail && (!result || tail.meta.id === result.meta.id)) {
    const stored = result?.segments ?? [];
    // The tail holds sequence numbers `from` on; keep the part IndexedDB lacks.
    const all = [...stored, ...tail.segments.slice(Math.max(0, stored.length - tail.from))];
    const last = all[all.length - 1];
    if (tail.interim.trim()) {
      all.push({ text: tail.interim.trim(), startMs: last?.endMs ?? 0, endMs: Math.max(last?.endMs ?? 0, tail.meta.durationMs) });
    }
    const meta = result?.meta ?? tail.meta;
    result = { meta: { ...meta, durationMs: Math.max(meta.durationMs, tail.meta.durationMs) }, segments: all };
  }
  if (!result || result.segments.length === 0) return null;
  return result;
}

class IdbRecovery implements RecoveryStore {
  private db: Promise<IDBDatabase> | undefined;
  private meta: RecoveryMeta | null = null;
  /** Sequence number of the next segment. */
  private seq = 0;
  /** Queued for the next transaction; in a transaction not yet committed. */
  private queue: StoredSegment[] = [];
  private inFlight: StoredSegment[] = [];
  /** Cancels the scheduled write, if any. */
  private pending: (() => void) | undefined;
  private chain: Promise<void> = Promise.resolve();
  private metaDirty = false;
  private clearAll = false;

  private database(): Promise<IDBDatabase> {
    return (this.db ??= openDb());
  }

  /** Whose transcript this store is writing (undefined: none). */
  get owner(): string | null | undefined {
    return this.meta?.userId;
  }

  begin(meta: Omit<RecoveryMeta, 'durationMs'>): void {
    live.add(this);
    this.meta = { ...meta, durationMs: 0 };
    this.seq = 0;
    this.queue = [];
    this.clearAll = true;
    setRecoveryMarker(true);
    this.metaDirty = true;
    writeStorage(TAIL_KEY, null);
    this.schedule();
  }

  adopt(recovered: RecoveredTranscript): void {
    live.add(this);
    this.meta = { ...recovered.meta };
    setRecoveryMarker(true);
    this.seq = recovered.segments.length;
    // Rewrite everything once (the localStorage tail and interim become IndexedDB rows).
    this.clearAll = true;
    this.queue = recovered.segments.map((s, seq) => ({ ...s, sid: recovered.meta.id, seq }));
    this.metaDirty = true;
    this.schedule();
  }

  append(segment: Segment): void {
    if (!this.meta) return;
    this.queue.push({ text: segment.text, startMs: segment.startMs, endMs: segment.endMs, sid: this.meta.id, seq: this.seq++ });
    this.meta.durationMs = Math.max(this.meta.durationMs, segment.endMs);
    this.metaDirty = true;
    this.schedule();
  }

  setDuration(ms: number): void {
    if (!this.meta || ms === this.meta.durationMs) return;
    this.meta.durationMs = ms;
    this.metaDirty = true;
    this.schedule();
  }

  private schedule(): void {
    this.pending ??= later(FLUSH_DELAY_MS, () => {
      this.pending = undefined;
      void this.flush();
    });
  }

  private unschedule(): void {
    this.pending?.();
    this.pending = undefined;
  }

  flush(): Promise<void> {
    this.unschedule();
    if (!this.metaDirty && this.queue.length === 0 && !this.clearAll) return this.chain;
    const meta = this.meta ? { ...this.meta } : null;
    const batch = this.queue;
    const clear = this.clearAll;
    this.queue = [];
    this.metaDirty = false;
    this.clearAll = false;
    this.inFlight = [...this.inFlight, ...batch];
    this.chain = this.chain
      .then(async () => {
        const db = await this.database();
        const tx = db.transaction([META, SEGMENTS], 'readwrite');
        const segments = tx.objectStore(SEGMENTS);
        if (clear) segments.clear();
        for (const row of batch) segments.put(row);
        if (meta) tx.objectStore(META).put(meta, META_KEY);
        else tx.objectStore(META).delete(META_KEY);
        await done(tx);
      })
      .catch(() => {
        // Storage refused (quota, private mode): the pagehide copy still runs.
      })
      .finally(() => {
        this.inFlight = this.inFlight.filter((row) => !batch.includes(row));
      });
    return this.chain;
  }

  flushSync(interim: string): void {
    if (!this.meta) return;
    const pending = [...this.inFlight, ...this.queue];
    const from = pending[0]?.seq ?? this.seq;
    const tail: Tail = {
      meta: { ...this.meta },
      from,
      segments: pending.map(({ text, startMs, endMs }) => ({ text, startMs, endMs })),
      interim,
    };
    writeStorage(TAIL_KEY, JSON.stringify(tail));
    void this.flush();
  }

  pageShown(): void {
    if (!this.meta) return;
    writeStorage(TAIL_KEY, null);
    void this.flush();
  }

  discard(): void {
    live.delete(this);
    this.meta = null;
    this.seq = 0;
    this.queue = [];
    this.clearAll = true;
    this.metaDirty = true;
    writeStorage(TAIL_KEY, null);
    setRecoveryMarker(false);
    void this.flush();
  }

  detach(): void {
    live.delete(this);
    if (!this.meta) return;
    // The write takes the current meta and queue now; later calls find no meta and do nothing.
    // Without the marker another tab removed the copy (a logout there): nothing is written back.
    if (hasRecoveryMarker()) void this.flush();
    this.meta = null;
    this.seq = 0;
    this.queue = [];
    this.metaDirty = false;
    this.clearAll = false;
    this.unschedule();
  }

  async load(owner: string | null): Promise<RecoveredTranscript | null> {
    return ownedBy(await this.loadAny(), owner);
  }

  /** Whatever the device holds, whoever recorded it. */
  async loadAny(): Promise<RecoveredTranscript | null> {
    const tail = readTail();
    let meta: RecoveryMeta | null = null;
    let stored: Segment[] = [];
    try {
      const db = await this.database();
      const tx = db.transaction([META, SEGMENTS], 'readonly');
      const found: unknown = await request(tx.objectStore(META).get(META_KEY));
      if (isMeta(found)) {
        meta = found;
        const range = IDBKeyRange.bound([found.id, 0], [found.id, Number.MAX_SAFE_INTEGER]);
        const rows = (await request(tx.objectStore(SEGMENTS).getAll(range))) as StoredSegment[];
        stored = rows.filter(isSegment).map(({ text, startMs, endMs }) => ({ text, startMs, endMs }));
      }
    } catch {
      // IndexedDB unavailable: the tail alone.
    }
    return merge(meta, stored, tail);
  }
}

/** Without IndexedDB: everything in localStorage, rewritten at most once a second (in idle time) and at pagehide. */
class LocalRecovery implements RecoveryStore {
  private meta: RecoveryMeta | null = null;
  private segments: Segment[] = [];
  /** Cancels the scheduled write, if any. */
  private pending: (() => void) | undefined;

  get owner(): string | null | undefined {
    return this.meta?.userId;
  }

  begin(meta: Omit<RecoveryMeta, 'durationMs'>): void {
    live.add(this);
    this.meta = { ...meta, durationMs: 0 };
    this.segments = [];
    setRecoveryMarker(true);
    this.write('');
  }

  adopt(recovered: RecoveredTranscript): void {
    live.add(this);
    this.meta = { ...recovered.meta };
    this.segments = [...recovered.segments];
    setRecoveryMarker(true);
    this.write('');
  }

  append(segment: Segment): void {
    if (!this.meta) return;
    this.segments.push({ text: segment.text, startMs: segment.startMs, endMs: segment.endMs });
    this.meta.durationMs = Math.max(this.meta.durationMs, segment.endMs);
    this.schedule();
  }

  setDuration(ms: number): void {
    if (!this.meta) return;
    this.meta.durationMs = ms;
    this.schedule();
  }

  private schedule(): void {
    this.pending ??= later(LOCAL_FLUSH_DELAY_MS, () => {
      this.pending = undefined;
      this.write('');
    });
  }

  private unschedule(): void {
    this.pending?.();
    this.pending = undefined;
  }

  private write(interim: string): void {
    this.unschedule();
    if (!this.meta) return writeStorage(TAIL_KEY, null);
    const tail: Tail = { meta: this.meta, from: 0, segments: this.segments, interim };
    writeStorage(TAIL_KEY, JSON.stringify(tail));
  }

  /** Without a transcript (discarded, detached) there is nothing to write: the device copy stays as it is. */
  flush(): Promise<void> {
    if (this.meta) this.write('');
    return Promise.resolve();
  }

  flushSync(interim: string): void {
    if (this.meta) this.write(interim);
  }

  pageShown(): void {
    if (this.meta) this.write('');
  }

  discard(): void {
    live.delete(this);
    this.meta = null;
    this.segments = [];
    setRecoveryMarker(false);
    this.write('');
  }

  detach(): void {
    live.delete(this);
    if (!this.meta) return;
    // Without the marker another tab removed the copy (a logout there): nothing is written back.
    if (hasRecoveryMarker()) this.write('');
    this.unschedule();
    this.meta = null;
    this.segments = [];
  }

  load(owner: string | null): Promise<RecoveredTranscript | null> {
    return this.loadAny().then((found) => ownedBy(found, owner));
  }

  loadAny(): Promise<RecoveredTranscript | null> {
    return Promise.resolve(merge(null, [], readTail()));
  }
}

const createStore = () => (typeof indexedDB === 'undefined' ? new LocalRecovery() : new IdbRecovery());

export function createRecoveryStore(): RecoveryStore {
  return createStore();
}

/**
 * Logout: the user's transcript leaves this device. Stores writing it stop at once (even one
 * still recording), and the device copy is removed if that user recorded it; a copy of someone
 * else (a visitor, another account) stays, still offered only to its owner.
 */
export async function forgetRecovery(userId: string): Promise<void> {
  const writing = [...live].filter((store) => store.owner === userId);
  for (const store of writing) store.discard();
  await Promise.all(writing.map((store) => store.flush()));
  const store = createStore();
  if ((await store.loadAny())?.meta.userId !== userId) return;
  store.discard();
  await store.flush();
}

