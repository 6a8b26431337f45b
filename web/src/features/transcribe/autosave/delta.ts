import type { RecognitionLanguage } from '@app/shared/constants';
import type { Segment } from '@app/shared/schemas/transcriptions';
import type { TextSource } from '../lib/transcript-store';
import type { InlineTail, PlacedSegment, QueueEntry } from './queue-storage';

/**
 * What to send, given the transcript and what the server has confirmed: pure functions
 * over a queue entry and the text it reads, no I/O.
 *
 * Saves send only the unsent part, as a delta at `base`; the answer moves `base` forward.
 * A retried delta is a no-op on the server; a 409 gap gives the server's length and the
 * text is resent from there.
 */

/** Delta size of one request (chars); the server takes at most DELTA_MAX_CHARS (300,000). */
export const DELTA_CHUNK_CHARS = 100_000;
/** Browsers cap the bodies of keepalive requests in flight at 64 KiB. */
export const KEEPALIVE_MAX_BYTES = 60_000;
const SEGMENT_TEXT_MAX = 10_000;

export interface Delta {
  sessionId: string;
  offset: number;
  text: string;
  segments: Segment[];
  duration: number;
  language: RecognitionLanguage;
}

/** The text a queue entry sends from: its device transcript, whole, and the segments placed in it. */
export interface Source {
  text: TextSource;
  /** In order, each after the one before (placeSegments). */
  segments: readonly PlacedSegment[];
  /** Segments starting before this offset are not sent (the server refused them). */
  segmentsFrom: number;
}

/**
 * The text of an entry that carries its unsent text itself (InlineTail): the tail, at its offset
 * in the transcript. Only offsets from the tail's `at` on are read (nothing before it is on the device).
 */
export function inlineSource(tail: InlineTail): Source {
  const text: TextSource = {
    get length() {
      return tail.at + tail.text.length;
    },
    slice: (start, end = text.length) => tail.text.slice(Math.max(0, start - tail.at), Math.max(0, end - tail.at)),
  };
  return { text, segments: tail.segments, segmentsFrom: 0 };
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

export const roundDuration = (seconds: number) => (Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds) : 0);
/** The length of the transcript the entry stands for. */
export const totalOf = (e: QueueEntry) => e.length;
/** The server lacks some of the entry's text. */
export const hasText = (e: QueueEntry) => e.length > e.base;
/** The duration or language changed since the last delta the server took. */
export const metaChanged = (e: QueueEntry) => roundDuration(e.durationSec) !== e.sentDurationSec || e.language !== e.sentLanguage;
/** Something to ask for or send: a session id, text, a duration or language change, or the completion. */
export const hasWork = (e: QueueEntry) => !e.sessionId || hasText(e) || metaChanged(e) || e.stopped;

/** The placed segments lying whole within [from, to), in order (found by bisection: the cost is theirs, not the transcript's). */
function segmentsWithin(segments: readonly PlacedSegment[], from: number, to: number): PlacedSegment[] {
  let lo = 0;
  let hi = segments.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (segments[mid]!.at < from) lo = mid + 1;
    else hi = mid;
  }
  const found: PlacedSegment[] = [];
  for (let i = lo; i < segments.length && segments[i]!.at + segments[i]!.text.length <= to; i++) found.push(segments[i]!);
  return found;
}

/** The next delta: from `base`, at most `maxChars`, cut after a whole segment and never inside a surrogate pair. */
export function nextDelta(e: QueueEntry, source: Source, maxChars: number): Delta {
  const unsent = Math.max(0, Math.min(e.length, source.text.length) - e.base);
  const inTail = segmentsWithin(source.segments, Math.max(e.base, source.segmentsFrom), e.base + unsent);
  let end = Math.min(unsent, maxChars);
  let text = source.text.slice(e.base, e.base + end);
  if (end < unsent) {
    let cut = 0;
    for (const s of inTail) {
      const segEnd = s.at + s.text.length - e.base;
      if (segEnd > end) break;
      cut = segEnd;
    }
    if (cut > 0) end = cut;
    if (end > 1 && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
    text = text.slice(0, end);
  }
  const limit = e.base + end;
  const segments = inTail
    .filter((s) => s.at + s.text.length <= limit)
    // Each segment says where it sits, so the server checks it there instead of searching the text.
    .map(({ text, startMs, endMs, at }) => ({ text, startMs, endMs, at }));
  return {
    sessionId: e.sessionId!,
    offset: e.base,
    text,
    segments,
    duration: roundDuration(e.durationSec),
    language: e.language,
  };
}

/** The longest next delta whose JSON body fits a keepalive request (halving from a quarter of the limit), if any does. */
export function keepaliveDelta(e: QueueEntry, source: Source): Delta | undefined {
  let chars = Math.min(e.length - e.base, Math.floor(KEEPALIVE_MAX_BYTES / 4));
  for (;;) {
    const delta = nextDelta(e, source, chars);
    if (utf8Bytes(JSON.stringify(delta)) <= KEEPALIVE_MAX_BYTES) return delta;
    if (chars <= 1) return undefined;
    chars = Math.floor(chars / 2);
  }
}

/** The server holds `length` characters: the new confirmed length (a stale answer changes nothing, and it never passes the entry's length). */
export const confirmed = (e: QueueEntry, length: number): number => e.base + Math.max(0, Math.min(length - e.base, e.length - e.base));

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

/**
 * The queued entry the transcript `transcript` (of `length` characters) continues after a reload:
 * one of that device transcript whose length it reaches; the longest, a running one before a
 * stopped one.
 */
export function continuedBy(transcript: string, length: number, entries: Iterable<QueueEntry>, options: { except?: QueueEntry; running?: boolean } = {}): QueueEntry | undefined {
  let best: QueueEntry | undefined;
  for (const e of entries) {
    if (e === options.except || e.transcript !== transcript || totalOf(e) > length) continue;
    if (options.running && (e.stopped || totalOf(e) === 0)) continue;
    if (!best || totalOf(e) > totalOf(best) || (best.stopped && !e.stopped)) best = e;
  }
  return best;
}
