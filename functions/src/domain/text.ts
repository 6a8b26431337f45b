import { decodeTime, encodeTime } from 'ulid';
import { PREVIEW_CHARS } from '@app/shared/constants';
import type { Segment } from '@app/shared/schemas/transcriptions';

/**
 * Characters of transcript per stored chunk. Worst case per character: 3 bytes of search
 * text plus a 10-byte exception (see encodeSearchable), so a chunk stays far below 400 KB.
 */
export const CHUNK_CHARS = 16_000;
/** Segments per stored chunk (~20 bytes each, packed), so a flood of tiny segments cannot outgrow an item. */
export const CHUNK_SEGMENTS = 2_000;
/** Characters of the previous text repeated in front of a chunk's search copy, so matches across a boundary are found. */
export const SEARCH_OVERLAP = 100;

const isSimple = (code: number) => code < 0x80 && !(code >= 0x41 && code <= 0x5a);

/** One code point, case- and accent-free: "Ç" -> "c". */
function foldCodePoint(ch: string): string {
  return ch.normalize('NFD').replace(/\p{M}+/gu, '').normalize('NFC').toLowerCase();
}

/** Case- and accent-insensitive form for search: "Transcrição" -> "transcricao" (code point by code point). */
export function normaliseForSearch(text: string): string {
  let out = '';
  for (const ch of text) out += isSimple(ch.charCodeAt(0)) ? ch : foldCodePoint(ch);
  return out;
}

/**
 * The stored form of text: its search copy `n` (normalised, with `o` characters of the
 * previous text's search copy in front) and the exceptions `x` that turn it back into the
 * original. Text is stored once, searchable with `contains(n, :q)`, and read back exactly.
 * An exception is `<position in n after the overlap, base 36>.<folded length><original code point>`.
 */
export interface Searchable {
  n: string;
  o: number;
  x: string;
}

export function encodeSearchable(text: string, overlap: string): Searchable {
  let n = '';
  let x = '';
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (isSimple(code)) {
      n += ch;
      continue;
    }
    const folded = foldCodePoint(ch);
    if (folded !== ch) {
      if (folded.length > 9) throw new Error('fold longer than 9 characters');
      x += `${n.length.toString(36)}.${folded.length}${ch}`;
    }
    n += folded;
  }
  return { n: overlap + n, o: overlap.length, x };
}

export function decodeSearchable({ n, o, x }: Searchable): string {
  const norm = n.slice(o);
  let out = '';
  let pos = 0;
  let i = 0;
  while (i < x.length) {
    const dot = x.indexOf('.', i);
    const at = parseInt(x.slice(i, dot), 36);
    const len = Number(x[dot + 1]);
    const cp = x.codePointAt(dot + 2)!;
    const original = String.fromCodePoint(cp);
    out += norm.slice(pos, at) + original;
    pos = at + len;
    i = dot + 2 + original.length;
  }
  return out + norm.slice(pos);
}

/** A stored segment: times, and where its text sits in the whole transcript. */
export type StoredSegment = [startMs: number, endMs: number, at: number, len: number];

/**
 * The first index of `pattern` in `text` at or after `from`, or -1. Knuth-Morris-Pratt: time
 * linear in text and pattern whatever they hold (the engine's indexOf slows down on a pattern
 * with a long repetitive tail, like `ab` + `aaaa…` against `aaaa…`).
 */
export function indexFrom(text: string, pattern: string, from: number): number {
  const m = pattern.length;
  if (m === 0) return from <= text.length ? from : -1;
  const fallback = new Int32Array(m);
  for (let i = 1, k = 0; i < m; i++) {
    const c = pattern.charCodeAt(i);
    while (k > 0 && c !== pattern.charCodeAt(k)) k = fallback[k - 1]!;
    if (c === pattern.charCodeAt(k)) k++;
    fallback[i] = k;
  }
  for (let i = from, k = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    while (k > 0 && c !== pattern.charCodeAt(k)) k = fallback[k - 1]!;
    if (c === pattern.charCodeAt(k)) k++;
    if (k === m) return i - m + 1;
  }
  return -1;
}

/**
 * Places segments in text appended at `offset`, in one forward pass: each segment's text must
 * occur after the previous one's (empty segments are skipped). A segment that gives its place
 * (`at`, in the whole transcript) must be there, checked in time of its own length; one that does
 * not is searched for from the end of the previous one (indexFrom). A segment that does not match
 * is refused, with a message naming it. Linear in the text and the segments' text: each search
 * starts where the previous match ended, so the searches cover disjoint stretches, and the first
 * miss ends the pass.
 */
export function placeSegments(text: string, offset: number, segments: readonly Segment[]): { placed: StoredSegment[] } | { error: string } {
  const placed: StoredSegment[] = [];
  let cursor = 0;
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    if (!s.text) continue;
    const at = s.at === undefined ? indexFrom(text, s.text, cursor) : s.at - offset;
    if (at < cursor || !text.startsWith(s.text, at)) return { error: `Segment ${i + 1} does not match the text: segments must occur in it in order` };
    placed.push([s.startMs, Math.max(s.startMs, s.endMs), offset + at, s.text.length]);
    cursor = at + s.text.length;
  }
  return { placed };
}

/**
 * Segments as stored on a chunk: one string, `start,end,at,len` in base 36, `;` between
 * segments. A string is written and read as one attribute, where a list of number lists costs
 * four DynamoDB values per segment to convert on every write and read.
 */
export function packSegments(segments: readonly StoredSegment[]): string {
  let out = '';
  for (let i = 0; i < segments.length; i++) {
    const [startMs, endMs, at, len] = segments[i]!;
    out += `${i ? ';' : ''}${startMs.toString(36)},${endMs.toString(36)},${at.toString(36)},${len.toString(36)}`;
  }
  return out;
}

export function unpackSegments(packed: string): StoredSegment[] {
  if (!packed) return [];
  return packed.split(';').map((part) => {
    const [a = '0', b = '0', c = '0', d = '0'] = part.split(',');
    return [parseInt(a, 36), parseInt(b, 36), parseInt(c, 36), parseInt(d, 36)];
  });
}

export function segmentsFromStored(fullText: string, stored: readonly StoredSegment[]): Segment[] {
  return stored.map(([startMs, endMs, at, len]) => ({ startMs, endMs, text: fullText.slice(at, at + len) }));
}

export interface ChunkPiece extends Searchable {
  offset: number;
  /** Length of the original text (UTF-16 code units). */
  l: number;
  seg: StoredSegment[];
}

/**
 * Splits text appended at `offset` into chunks of at most CHUNK_CHARS characters and
 * CHUNK_SEGMENTS segments, never splitting a surrogate pair. `overlap` is the tail of the
 * previous chunk's search copy.
 */
export function splitIntoChunks(text: string, offset: number, segments: StoredSegment[], overlap: string): ChunkPiece[] {
  const pieces: ChunkPiece[] = [];
  let start = 0;
  let segIndex = 0;
  let prev = overlap.slice(-SEARCH_OVERLAP);
  while (start < text.length) {
    let end = Math.min(text.length, start + CHUNK_CHARS);
    // A chunk also ends before its (CHUNK_SEGMENTS + 1)th segment.
    const firstSeg = segIndex;
    let lastSeg = firstSeg;
    while (lastSeg < segments.length && segments[lastSeg]![2] - offset < end) lastSeg++;
    if (lastSeg - firstSeg > CHUNK_SEGMENTS) {
      lastSeg = firstSeg + CHUNK_SEGMENTS;
      end = Math.max(start + 1, segments[lastSeg]![2] - offset);
    }
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    const chunkText = text.slice(start, end);
    const searchable = encodeSearchable(chunkText, prev);
    pieces.push({ offset: offset + start, l: chunkText.length, ...searchable, seg: segments.slice(firstSeg, lastSeg) });
    prev = searchable.n.slice(-SEARCH_OVERLAP);
    segIndex = lastSeg;
    start = end;
  }
  return pieces;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

export function preview(text: string): string {
  const p = text.slice(0, PREVIEW_CHARS);
  return isHighSurrogate(p.charCodeAt(p.length - 1)) ? p.slice(0, -1) : p;
}

/**
 * The ULID bounds of a calendar month, in the caller's time zone (minutes east of UTC),
 * so a month filter is a key range.
 */
export function monthRange(month: string | undefined, tzOffsetMinutes = 0): { lo: string; hi: string } {
  if (!month) return { lo: '0'.repeat(26), hi: 'Z'.repeat(26) };
  const [y, m] = month.split('-').map(Number) as [number, number];
  const start = Date.UTC(y, m - 1, 1) - tzOffsetMinutes * 60_000;
  const end = Date.UTC(y, m, 1) - tzOffsetMinutes * 60_000;
  return { lo: encodeTime(Math.max(0, start), 10) + '0'.repeat(16), hi: encodeTime(Math.max(0, end - 1), 10) + 'Z'.repeat(16) };
}

export const createdAtOf = (id: string) => new Date(decodeTime(id)).toISOString();

/** The opaque page cursor: the id of the last item of the previous page. */
export const encodeCursor = (id: string) => Buffer.from(`v1:${id}`).toString('base64url');
export function decodeCursor(cursor: string): string | undefined {
  const raw = Buffer.from(cursor, 'base64url').toString('utf8');
  const m = /^v1:([0-9A-HJKMNP-TV-Z]{26})$/.exec(raw);
  return m?.[1];
}

/**
 * Which generation of chunks holds each stretch of a transcript: `[offset, gen]` entries in
 * ascending offset, the live chunks from `offset` up to the next entry being those of `gen` ('' =
 * the chunks the transcript was first written with, whose keys carry no generation). An edit
 * writes the chunks from the first changed one on under a new generation and then switches the
 * layout on the metadata, so a reader that follows the layout never sees half an edit. Stored on
 * the metadata as `layout`, `<offset>:<gen>` entries joined by `;`; absent: every chunk is of ''.
 */
export type ChunkLayout = [offset: number, gen: string][];

export function parseLayout(stored: string | undefined): ChunkLayout {
  if (!stored) return [[0, '']];
  return stored.split(';').map((entry) => {
    const colon = entry.indexOf(':');
    return [Number(entry.slice(0, colon)), entry.slice(colon + 1)];
  });
}

export const formatLayout = (layout: ChunkLayout) => layout.map(([offset, gen]) => `${offset}:${gen}`).join(';');

/** The generation whose chunk is live at `offset`. */
export function genAt(layout: ChunkLayout, offset: number): string {
  let gen = '';
  for (const [from, g] of layout) {
    if (from > offset) break;
    gen = g;
  }
  return gen;
}

/** The layout once the chunks from `from` on are those of `gen`. */
export function layoutFrom(layout: ChunkLayout, from: number, gen: string): ChunkLayout {
  return [...layout.filter(([offset]) => offset < from), [from, gen]];
}
