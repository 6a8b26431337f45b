import type { RecognitionLanguage } from '@app/shared/constants';
import type { Segment } from '@app/shared/schemas/transcriptions';
import type { TextSource } from '../lib/transcript-store';
import type { PlacedSegment, QueueEntry } from './queue-storage';

/**
 * What to send, given the transcript and what the server has confirmed: pure functions
 * over a queue entry, no I/O.
 *
 * Saves send only the entry's tail, as a delta at `base`; the answer moves `base` forward.
 * A retried delta is a no-op on the server; a 409 gap gives the server's length and the
 * tail is resent from there.
 */

/** Delta size of one request (chars); the server takes at most DELTA_MAX_CHARS (300,000). */
export const DELTA_CHUNK_CHARS = 100_000;
/** Browsers cap the bodies of keepalive requests in flight at 64 KiB. */
export const KEEPALIVE_MAX_BYTES = 60_000;
const EDGE_CHARS = 64;
const SEGMENT_TEXT_MAX = 10_000;

export interface Delta {
  sessionId: string;
  offset: number;
  text: string;
  segments: Segment[];
  duration: number;
  language: RecognitionLanguage;
}

/** The tail's fields a server answer changes. */
export type Tail = Pick<QueueEntry, 'base' | 'text' | 'segments'>;

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

/** The last characters of the transcript, to recognise it after a reload. */
export const edgeOf = (text: TextSource) => text.slice(Math.max(0, text.length - EDGE_CHARS));
export const roundDuration = (seconds: number) => (Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds) : 0);
/** The length of the transcript the entry stands for. */
export const totalOf = (e: QueueEntry) => e.base + e.text.length;
export const hasText = (e: QueueEntry) => e.text.length > 0;
/** The duration or language changed since the last delta the server took. */
export const metaChanged = (e: QueueEntry) => roundDuration(e.durationSec) !== e.sentDurationSec || e.language !== e.sentLanguage;
/** Something to ask for or send: a session id, text, a duration or language change, or the completion. */
export const hasWork = (e: QueueEntry) => !e.sessionId || hasText(e) || metaChanged(e) || e.stopped;

/** The next delta: from `base`, at most `maxChars`, cut after a whole segment and never inside a surrogate pair. */
export function nextDelta(e: QueueEntry, maxChars: number): Delta {
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
    // Each segment says where it sits, so the server checks it there instead of searching the text.
    .map(({ text, startMs, endMs, at }) => ({ text, startMs, endMs, at }));
  return {
    sessionId: e.sessionId!,
    offset: e.base,
    text: e.text.slice(0, end),
    segments,
    duration: roundDuration(e.durationSec),
    language: e.language,
  };
}

/** The longest next delta whose JSON body fits a keepalive request (halving from a quarter of the limit), if any does. */
export function keepaliveDelta(e: QueueEntry): Delta | undefined {
  let chars = Math.min(e.text.length, Math.floor(KEEPALIVE_MAX_BYTES / 4));
  for (;;) {
    const delta = nextDelta(e, chars);
    if (utf8Bytes(JSON.stringify(delta)) <= KEEPALIVE_MAX_BYTES) return delta;
    if (chars <= 1) return undefined;
    chars = Math.floor(chars / 2);
  }
}

/** The server holds `length` characters: the tail without them (a stale answer changes nothing). */
export function confirmed(e: QueueEntry, length: number): Tail {
  const done = Math.max(0, Math.min(length - e.base, e.text.length));
  const base = e.base + done;
  return { base, text: e.text.slice(done), segments: e.segments.filter((s) => s.at >= base) };
}

/** 409 with the whole transcript at hand: the tail from the server's `length` (at most the transcript's). */
export function resentFrom(text: TextSource, segments: readonly PlacedSegment[], length: number): Tail {
  return { base: length, text: text.slice(length), segments: segments.filter((s) => s.at >= length) };
}

/** 409 when only the tail survives (a reload): the tail is kept whole, appended at the server's `length`. */
export function shiftedTo(e: QueueEntry, length: number): Tail {
  const shift = length - e.base;
  return { base: length, text: e.text, segments: e.segments.map((s) => ({ ...s, at: s.at + shift })) };
}

/** Where the next segment search starts: the count of segments looked at and the offset after the last one found. */
export interface Placement {
  count: number;
  cursor: number;
}
export const NO_PLACEMENT: Placement = { count: 0, cursor: 0 };

/**
 * Places the segments after `from.count` in the transcript, each searched after the one before
 * (a segment not found is left out; the text is kept to SEGMENT_TEXT_MAX, times to whole ms).
 * A shorter list than before is a new one: looked at from its start.
 */
export function placeSegments(text: TextSource, segments: readonly Segment[], from: Placement): { placed: PlacedSegment[]; next: Placement } {
  let cursor = from.cursor;
  const placed: PlacedSegment[] = [];
  // The text from the cursor on, read once and only when there is a new segment to place.
  let tail: string | undefined;
  for (let i = segments.length < from.count ? 0 : from.count; i < segments.length; i++) {
    const s = segments[i]!;
    if (!s.text) continue;
    tail ??= text.slice(from.cursor);
    const found = tail.indexOf(s.text, cursor - from.cursor);
    if (found < 0) continue;
    const at = from.cursor + found;
    cursor = at + s.text.length;
    placed.push({
      text: s.text.slice(0, SEGMENT_TEXT_MAX),
      startMs: Math.max(0, Math.round(s.startMs)),
      endMs: Math.max(0, Math.round(s.endMs)),
      at,
    });
  }
  return { placed, next: { count: segments.length, cursor } };
}

/** A placed segment goes with the tail when it lies in it, after the tail's last segment. */
export function inTail(e: QueueEntry, s: PlacedSegment): boolean {
  const last = e.segments.at(-1);
  return s.at >= e.base && (!last || s.at >= last.at + last.text.length);
}

/**
 * The queued entry a transcript continues (after a reload): one whose length it reaches and
 * whose last characters it has there; the longest, a running one before a stopped one.
 */
export function continuedBy(text: TextSource, entries: Iterable<QueueEntry>, options: { except?: QueueEntry; running?: boolean } = {}): QueueEntry | undefined {
  let best: QueueEntry | undefined;
  for (const e of entries) {
    if (e === options.except || (options.running && (e.stopped || totalOf(e) === 0))) continue;
    const total = totalOf(e);
    if (total > text.length || text.slice(total - e.edge.length, total) !== e.edge) continue;
    if (!best || total > totalOf(best) || (best.stopped && !e.stopped)) best = e;
  }
  return best;
}
