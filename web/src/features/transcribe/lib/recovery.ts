import { isRecognitionLanguage, type RecognitionLanguage } from '@app/shared/recognition-languages';
import type { Segment } from '@app/shared/schemas/transcriptions';
import { readStorage, writeStorage } from '../../../lib/storage';
import { queuedTranscripts } from '../autosave/queue-key';
import { hasRecoveryMarker, recoveryMarker, setRecoveryMarker } from './recovery-marker';

/**
 * "Nothing lost": the device's one copy of a transcript, read by two: the card, which offers
 * the current transcript back after a reload or crash, and the autosave queue, which reads
 * from it the text the server has not confirmed yet (the queue keeps no text of its own).
 *
 * A transcript's final segments are written to IndexedDB in batches, off the result path (a
 * result only queues its segment; the write runs in the browser's idle time, at most
 * FLUSH_DELAY_MS + IDLE_TIMEOUT_MS later), and whatever is not yet written (plus the interim
 * text) goes to localStorage synchronously on `pagehide`, as that transcript's "tail" (each
 * transcript has its own, so tabs never overwrite each other's). Without IndexedDB, or while it
 * refuses writes, the unwritten part goes to the tail with every write instead.
 *
 * One transcript is offered for restore: the one the marker names. A transcript stays on the
 * device while it is offered or the autosave queue still reads it (queuedTranscripts):
 * discarding the restore prompt or beginning another transcription stops offering it, and it
 * goes once the queue has confirmed it (releaseTranscript).
 *
 * A transcript belongs to the user who recorded it (null: a visitor) and is offered back only
 * to that same user or visitor; a logout removes that user's transcripts (forgetRecovery).
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
  /** A new transcription: the previous one is no longer offered. */
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
  /** The transcription was saved or cleared, or the restore prompt declined: nothing is offered. */
  discard(): void;
  /** The signed-in user changed: what is pending is written for its owner, and nothing more is written. */
  detach(): void;
  /** The transcript offered on this device, only when `owner` (a user id, or null for a visitor) recorded it. */
  load(owner: string | null): Promise<RecoveredTranscript | null>;
}

const DB_NAME = 'live-transcribe';
const DB_VERSION = 1;
/** Transcript id -> RecoveryMeta. */
const META = 'recovery-meta';
/** [transcript id, sequence number] -> segment. */
const SEGMENTS = 'recovery-segments';
/** Where versions that kept one transcript put its meta (and the marker they wrote). */
const LEGACY_META_KEY = 'current';
const LEGACY_MARKER = '1';
/** localStorage: the transcripts' tails (the unwritten part at pagehide, or everything without IndexedDB). */
const TAIL_KEY = 'transcribe.recovery';
const FLUSH_DELAY_MS = 250;
/** The longest a due write waits for idle time. */
const IDLE_TIMEOUT_MS = 500;
/** Without IndexedDB the whole tail is rewritten, so less often. */
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

const isSegment = (v: unknown): v is Segment =>
  typeof v === 'object' && v !== null && typeof (v as Segment).text === 'string' && Number.isFinite((v as Segment).startMs) && Number.isFinite((v as Segment).endMs);
const plain = ({ text, startMs, endMs }: Segment): Segment => ({ text, startMs, endMs });

function isMeta(v: unknown): v is RecoveryMeta {
  const m = v as RecoveryMeta;
  return (
    typeof v === 'object' && v !== null && typeof m.id === 'string' && (m.userId === null || typeof m.userId === 'string') &&
    isRecognitionLanguage(m.language) && typeof m.startedAt === 'string' && Number.isFinite(m.durationMs)
  );
}

const isTail = (v: unknown): v is Tail => {
  const t = v as Tail;
  return typeof v === 'object' && v !== null && isMeta(t.meta) && Array.isArray(t.segments) && t.segments.every(isSegment) && Number.isInteger(t.from) && t.from >= 0;
};

const ownedBy = (found: RecoveredTranscript | null, owner: string | null) => (found?.meta.userId === owner ? found : null);

/** Stores holding a transcript in memory (begun or adopted), so a logout can stop their writes. */
const live = new Set<DeviceRecovery>();

function readTails(): Tail[] {
  const raw = readStorage(TAIL_KEY);
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    // Versions that kept one transcript wrote one tail.
    return (Array.isArray(parsed) ? parsed : [parsed]).filter(isTail).map((t) => ({ ...t, interim: typeof t.interim === 'string' ? t.interim : '' }));
  } catch {
    return [];
  }
}

const writeTails = (tails: Tail[]) => writeStorage(TAIL_KEY, tails.length ? JSON.stringify(tails) : null);

/** Replaces the tail of transcript `id` (null: removes it), leaving the other transcripts' tails as they are. */
function putTail(id: string, tail: Tail | null): void {
  const others = readTails().filter((t) => t.meta.id !== id);
  writeTails(tail ? [...others, tail] : others);
}

/** The transcripts device storage keeps: the one offered (`offered`) and those the autosave queue reads. */
function keptWith(offered: string | null): Set<string> {
  const keep = queuedTranscripts();
  if (offered) keep.add(offered);
  return keep;
}

function pruneTails(keep: Set<string>): void {
  const tails = readTails();
  const kept = tails.filter((t) => keep.has(t.meta.id));
  if (kept.length !== tails.length) writeTails(kept);
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

/** The page's connection to IndexedDB, opened on first use (a failed open is tried again next time); null without IndexedDB. */
let connection: Promise<IDBDatabase> | undefined;
function database(): Promise<IDBDatabase> | null {
  if (typeof indexedDB === 'undefined') return null;
  return (connection ??= openDb().catch((err: unknown) => {
    connection = undefined;
    throw err;
  }));
}

/** A transcript's rows ([id] sorts before [id, seq], and [id, []] after every one). */
const rowsOf = (id: string) => IDBKeyRange.bound([id], [id, []]);

/** Deletes, in `tx`, every transcript whose id is not in `keep` (their metas and rows). */
function pruneRows(tx: IDBTransaction, keep: Set<string>): void {
  const metas = tx.objectStore(META);
  const keys = metas.getAllKeys();
  keys.onsuccess = () => {
    for (const key of keys.result) if (typeof key !== 'string' || !keep.has(key)) metas.delete(key);
  };
  const rows = tx.objectStore(SEGMENTS);
  const ids = [...keep].sort();
  if (ids.length === 0) return void rows.clear();
  // The ranges around the kept transcripts' rows.
  rows.delete(IDBKeyRange.upperBound([ids[0]!], true));
  for (let i = 1; i < ids.length; i++) rows.delete(IDBKeyRange.bound([ids[i - 1]!, []], [ids[i]!], true, true));
  rows.delete(IDBKeyRange.lowerBound([ids[ids.length - 1]!, []], true));
}

interface Stored {
  meta: RecoveryMeta | null;
  rows: StoredSegment[];
}

/**
 * Transcript `id`'s meta and rows in IndexedDB (id null: the transcript a version that kept one
 * left under LEGACY_META_KEY). Rejects when IndexedDB cannot be read.
 */
async function readRows(db: IDBDatabase, id: string | null): Promise<Stored> {
  const tx = db.transaction([META, SEGMENTS], 'readonly');
  let meta: unknown = id === null ? undefined : await request(tx.objectStore(META).get(id));
  if (!isMeta(meta)) {
    const legacy: unknown = await request(tx.objectStore(META).get(LEGACY_META_KEY));
    if (isMeta(legacy) && (id === null || legacy.id === id)) meta = legacy;
  }
  if (!isMeta(meta)) return { meta: null, rows: [] };
  const rows = (await request(tx.objectStore(SEGMENTS).getAll(rowsOf(meta.id)))) as StoredSegment[];
  return { meta, rows: rows.filter((row) => isSegment(row) && Number.isInteger(row.seq)) };
}

/** A transcript's final segments from its IndexedDB rows and its tail (which wins where both have one), in order, up to the first one missing. */
function segmentsOf(rows: readonly StoredSegment[], tail: Tail | undefined): Segment[] {
  const bySeq = new Map<number, Segment>();
  for (const row of rows) bySeq.set(row.seq, plain(row));
  tail?.segments.forEach((segment, i) => bySeq.set(tail.from + i, plain(segment)));
  const segments: Segment[] = [];
  for (let next = bySeq.get(0); next; next = bySeq.get(segments.length)) segments.push(next);
  return segments;
}

/** What the card restores: the segments, then the interim text the page had at pagehide as one more. */
function restorable({ meta, rows }: Stored, tail: Tail | undefined): RecoveredTranscript | null {
  const found = meta ?? tail?.meta;
  if (!found) return null;
  const segments = segmentsOf(rows, tail);
  const last = segments[segments.length - 1];
  if (tail?.interim.trim()) {
    segments.push({ text: tail.interim.trim(), startMs: last?.endMs ?? 0, endMs: Math.max(last?.endMs ?? 0, tail.meta.durationMs) });
  }
  if (segments.length === 0) return null;
  return { meta: { ...found, durationMs: Math.max(found.durationMs, tail?.meta.durationMs ?? 0) }, segments };
}

class DeviceRecovery implements RecoveryStore {
  private readonly db = database();
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
  /** The next write first deletes this transcript's rows (a restored transcript is written whole again). */
  private rewrite = false;
  /** The next write also deletes the transcripts device storage no longer keeps. */
  private prune = false;
  /** IndexedDB refused the last write: the unwritten part goes to the tail with each write until it takes one. */
  private refused = false;
  /** Device storage may hold a tail of this transcript, with this interim text. */
  private tail: { interim: string } | null = null;
  /** Changes whenever the store lets go of its transcript: a write that ends later is not about the current one. */
  private generation = 0;

  /** Whose transcript this store is writing (undefined: none). */
  get owner(): string | null | undefined {
    return this.meta?.userId;
  }

  get transcriptId(): string | undefined {
    return this.meta?.id;
  }

  begin(meta: Omit<RecoveryMeta, 'durationMs'>): void {
    this.open({ ...meta, durationMs: 0 }, []);
  }

  adopt(recovered: RecoveredTranscript): void {
    this.open({ ...recovered.meta }, recovered.segments);
    // Written whole once: the localStorage tail and interim become IndexedDB rows.
    this.rewrite = true;
    this.tail = { interim: '' };
  }

  private open(meta: RecoveryMeta, segments: readonly Segment[]): void {
    // The transcript before keeps what it has (the autosave queue may still read it); it goes with the prune below unless something keeps it.
    if (this.meta) void this.flush();
    live.add(this);
    this.generation++;
    this.meta = meta;
    this.seq = segments.length;
    this.queue = segments.map((s, seq) => ({ ...plain(s), sid: meta.id, seq }));
    this.inFlight = [];
    this.tail = null;
    this.refused = false;
    setRecoveryMarker(meta.id);
    // The transcripts no longer offered go, unless the autosave queue still reads them.
    this.prune = true;
    pruneTails(keptWith(meta.id));
    this.metaDirty = true;
    this.schedule();
  }

  append(segment: Segment): void {
    if (!this.meta) return;
    this.queue.push({ ...plain(segment), sid: this.meta.id, seq: this.seq++ });
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
    this.pending ??= later(this.db && !this.refused ? FLUSH_DELAY_MS : LOCAL_FLUSH_DELAY_MS, () => {
      this.pending = undefined;
      void this.flush();
    });
  }

  private unschedule(): void {
    this.pending?.();
    this.pending = undefined;
  }

  /** What IndexedDB does not hold yet, in order. */
  private unwritten(): StoredSegment[] {
    if (this.inFlight.length === 0) return this.queue;
    return [...this.inFlight, ...this.queue].sort((a, b) => a.seq - b.seq);
  }

  /** Writes this transcript's tail: what IndexedDB lacks, and `interim`; removes it when it would hold nothing IndexedDB lacks. */
  private writeTail(interim: string): void {
    if (!this.meta) return;
    const unwritten = this.unwritten();
    if (this.db && unwritten.length === 0 && !interim) {
      if (this.tail) putTail(this.meta.id, null);
      this.tail = null;
      return;
    }
    this.tail = { interim };
    putTail(this.meta.id, { meta: { ...this.meta }, from: unwritten[0]?.seq ?? this.seq, segments: unwritten.map(plain), interim });
  }

  /** A live store's write makes its transcript the one offered, unless nothing is (the device copy was removed). */
  private pointMarker(): void {
    const marker = recoveryMarker();
    if (this.meta && marker !== null && marker !== this.meta.id) setRecoveryMarker(this.meta.id);
  }

  flush(): Promise<void> {
    this.unschedule();
    if (!this.db) {
      // No IndexedDB: the tail is the whole copy.
      if (this.meta) {
        this.pointMarker();
        this.writeTail(this.tail?.interim ?? '');
      }
      this.metaDirty = false;
      this.prune = false;
      return Promise.resolve();
    }
    if (!this.metaDirty && this.queue.length === 0 && !this.rewrite && !this.prune) return this.chain;
    this.pointMarker();
    const db = this.db;
    const meta = this.meta ? { ...this.meta } : null;
    const batch = this.queue;
    const rewrite = this.rewrite;
    const keep = this.prune ? keptWith(meta?.id ?? recoveryMarker()) : null;
    const generation = this.generation;
    this.queue = [];
    this.metaDirty = false;
    this.rewrite = false;
    this.prune = false;
    this.inFlight = [...this.inFlight, ...batch];
    const write = async () => {
      const tx = (await db).transaction([META, SEGMENTS], 'readwrite');
      const segments = tx.objectStore(SEGMENTS);
      if (keep) pruneRows(tx, keep);
      if (rewrite && meta) segments.delete(rowsOf(meta.id));
      for (const row of batch) segments.put(row);
      if (meta) tx.objectStore(META).put(meta, meta.id);
      await done(tx);
    };
    const settle = (ok: boolean) => {
      const taken = new Set(batch);
      this.inFlight = this.inFlight.filter((row) => !taken.has(row));
      if (generation !== this.generation) return;
      if (ok) {
        this.refused = false;
        // A tail written at pagehide keeps only what IndexedDB still lacks (and the interim text).
        if (this.tail) this.writeTail(this.tail.interim);
        return;
      }
      // Storage refused (quota, private mode): tried again with the next write; meanwhile the tail holds it.
      this.queue = [...batch, ...this.queue];
      this.metaDirty = true;
      this.rewrite ||= rewrite;
      this.prune ||= keep !== null;
      this.refused = true;
      this.writeTail(this.tail?.interim ?? '');
    };
    this.chain = this.chain.then(write).then(
      () => settle(true),
      () => settle(false),
    );
    return this.chain;
  }

  flushSync(interim: string): void {
    if (!this.meta) return;
    this.unschedule();
    this.writeTail(interim);
    if (this.db) void this.flush();
  }

  pageShown(): void {
    if (!this.meta) return;
    if (!this.db) return this.writeTail('');
    if (this.tail) putTail(this.meta.id, null);
    this.tail = null;
    void this.flush();
  }

  discard(): void {
    live.delete(this);
    // Nothing is offered any more, unless another page's transcript is.
    const marker = recoveryMarker();
    if (!this.meta || marker === this.meta.id || marker === LEGACY_MARKER) setRecoveryMarker(null);
    this.generation++;
    this.meta = null;
    this.seq = 0;
    this.queue = [];
    this.inFlight = [];
    this.tail = null;
    this.metaDirty = false;
    this.rewrite = false;
    // Every transcript not offered goes, unless the autosave queue still reads it.
    this.prune = true;
    pruneTails(keptWith(recoveryMarker()));
    void this.flush();
  }

  detach(): void {
    live.delete(this);
    if (!this.meta) return;
    // The write takes the current meta and queue now; later calls find no meta and do nothing.
    // Without the marker another tab removed the copy (a logout there): nothing is written back.
    if (hasRecoveryMarker()) void this.flush();
    this.generation++;
    this.meta = null;
    this.seq = 0;
    this.queue = [];
    this.tail = null;
    this.metaDirty = false;
    this.rewrite = false;
    this.prune = false;
    this.unschedule();
  }

  async load(owner: string | null): Promise<RecoveredTranscript | null> {
    return ownedBy(await this.loadAny(), owner);
  }

  /** The transcript offered, whoever recorded it. */
  async loadAny(): Promise<RecoveredTranscript | null> {
    const marker = recoveryMarker();
    if (marker === null) return null;
    let id = marker === LEGACY_MARKER ? null : marker;
    const tails = readTails();
    let stored: Stored = { meta: null, rows: [] };
    try {
      if (this.db) stored = await readRows(await this.db, id);
    } catch {
      // IndexedDB unavailable: the tail alone.
    }
    id ??= stored.meta?.id ?? tails[tails.length - 1]?.meta.id ?? null;
    return restorable(stored, tails.find((t) => t.meta.id === id));
  }
}

export function createRecoveryStore(): RecoveryStore {
  return new DeviceRecovery();
}

/**
 * What the autosave queue reads of device transcript `id`: its meta and its final segments (no
 * interim text), as far as they run without a gap; null when the device no longer holds it.
 * Rejects when IndexedDB cannot be read now.
 */
export async function readTranscript(id: string): Promise<RecoveredTranscript | null> {
  const db = database();
  const stored = db ? await readRows(await db, id) : { meta: null, rows: [] };
  const tail = readTails().find((t) => t.meta.id === id);
  const meta = stored.meta ?? tail?.meta;
  return meta ? { meta, segments: segmentsOf(stored.rows, tail) } : null;
}

/** Removes the transcripts `doomed` picks from device storage (its tails, and its metas and rows in IndexedDB); resolves to their ids. */
async function removeTranscripts(doomed: (meta: RecoveryMeta) => boolean): Promise<Set<string>> {
  const tails = readTails();
  const gone = new Set(tails.filter((t) => doomed(t.meta)).map((t) => t.meta.id));
  if (gone.size) writeTails(tails.filter((t) => !gone.has(t.meta.id)));
  const db = database();
  if (!db) return gone;
  const tx = (await db).transaction([META, SEGMENTS], 'readwrite');
  const metas = tx.objectStore(META);
  const [keys, values] = await Promise.all([request(metas.getAllKeys()), request(metas.getAll())]);
  keys.forEach((key, i) => {
    const meta: unknown = values[i];
    if (!isMeta(meta) || !doomed(meta)) return;
    metas.delete(key);
    tx.objectStore(SEGMENTS).delete(rowsOf(meta.id));
    gone.add(meta.id);
  });
  await done(tx);
  return gone;
}

/**
 * The autosave queue no longer reads transcript `id` (its text is confirmed, or the session is
 * over): it leaves the device unless it is offered for restore, still read by the queue, or
 * being written by this page.
 */
export async function releaseTranscript(id: string): Promise<void> {
  if (recoveryMarker() === id || queuedTranscripts().has(id) || [...live].some((store) => store.transcriptId === id)) return;
  await removeTranscripts((meta) => meta.id === id);
}

/**
 * Logout: the user's transcripts leave this device. Stores writing one stop at once (even one
 * still recording), and every transcript that user recorded is removed, offered or kept for
 * the queue; one of someone else (a visitor, another account) stays, still offered only to its owner.
 */
export async function forgetRecovery(userId: string): Promise<void> {
  const writing = [...live].filter((store) => store.owner === userId);
  for (const store of writing) store.discard();
  await Promise.all(writing.map((store) => store.flush()));
  const offered = recoveryMarker() === LEGACY_MARKER ? (await new DeviceRecovery().loadAny())?.meta.id : recoveryMarker();
  const gone = await removeTranscripts((meta) => meta.userId === userId);
  if (offered && gone.has(offered)) setRecoveryMarker(null);
}
