import { joinsWithoutSpaces, type RecognitionLanguage } from '@app/shared/constants';
import type { Segment } from '@app/shared/schemas/transcriptions';
import { joinFor } from '../../../lib/text-join';

/**
 * The transcript of the session, outside React, built so that a new final
 * result costs O(1) however long the transcript is:
 *
 * - `segments` is append-only (shared, never copied);
 * - the running `text` grows by concatenation (no join per result);
 * - the view reads paragraphs ("blocks", at most BLOCK_MAX segments) grouped in
 *   chapters (at most CHAPTER_MAX blocks): an append replaces only the last
 *   block and the last chapter, so React compares a handful of memoised
 *   elements and the DOM changes one text node. Each block keeps its own text,
 *   grown by concatenation too.
 *
 * Interim text has its own subscription so it never re-renders the finals.
 */

/**
 * Text read by length and parts. A string is one; so is the store's running text, whose parts
 * cost their own length to read, never the whole transcript's (reading a string grown by
 * concatenation copies it whole, once per change).
 */
export interface TextSource {
  readonly length: number;
  slice(start: number, end?: number): string;
}

export interface TranscriptBlock {
  readonly key: number;
  readonly segments: readonly Segment[];
  /** Index of the first segment in the whole transcript (a stable key for its elements). */
  readonly first: number;
  /** The block's segments joined as the transcript joins them (line breaks kept: the view shows them). */
  readonly text: string;
}

export interface TranscriptChapter {
  readonly key: number;
  readonly blocks: readonly TranscriptBlock[];
}

/**
 * A block closes after this many segments, and at a paragraph of the text (a result that starts
 * with a blank line, or follows one that ends with one: paragraphs by silence, spoken "new paragraph").
 */
export const BLOCK_MAX = 40;
export const CHAPTER_MAX = 32;

/** A result's text as the transcript keeps it: spaces at its ends dropped, line breaks (spoken commands, paragraphs) kept. */
const trimSpaces = (text: string) => text.replace(/^[^\S\n]+|[^\S\n]+$/gu, '');
const PARAGRAPH_START = /^\n\n/u;
const PARAGRAPH_END = /\n\n$/u;

/** What joins two results: nothing in a language written without spaces (Chinese, Japanese, Cantonese), else a space. */
export const separatorFor = (language: RecognitionLanguage) => (joinsWithoutSpaces(language) ? '' : ' ');

type Listener = () => void;

/** One transcript's text, as the store builds it (replaced whole by clear and load, never emptied). */
interface Parts {
  segments: Segment[];
  /** Where each segment's text starts in the running text, and what joins it to the text before (joinFor). */
  offsets: number[];
  joins: string[];
  text: string;
}

const noParts = (): Parts => ({ segments: [], offsets: [], joins: [], text: '' });

/** Like String.prototype.slice over the parts' text, built from the segments it spans. */
function sliceOf(parts: Parts, start: number, end?: number): string {
  const length = parts.text.length;
  const from = Math.max(0, start < 0 ? length + start : Math.min(start, length));
  const to = end === undefined ? length : Math.max(0, end < 0 ? length + end : Math.min(end, length));
  if (to <= from) return '';
  const { segments, offsets, joins } = parts;
  // The last segment starting at or before `from`.
  let lo = 0;
  let hi = offsets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid]! <= from) lo = mid;
    else hi = mid - 1;
  }
  let part = '';
  // Up to the last segment whose separator starts before `to`.
  for (let i = lo; i < segments.length && offsets[i]! - joins[i]!.length < to; i++) {
    part += (i > lo ? joins[i]! : '') + segments[i]!.text;
  }
  const base = offsets[lo] ?? 0;
  return part.slice(from - base, to - base);
}

const sourceOf = (parts: Parts): TextSource => ({
  get length() {
    return parts.text.length;
  },
  slice: (start: number, end?: number) => sliceOf(parts, start, end),
});

export class TranscriptStore {
  private parts = noParts();
  private source = sourceOf(this.parts);
  private chapterList: readonly TranscriptChapter[] = [];
  private interimText = '';
  private separator = ' ';
  private nextKey = 0;
  private readonly finalListeners = new Set<Listener>();
  private readonly interimListeners = new Set<Listener>();
  private readonly appendListeners = new Set<(segment: Segment) => void>();

  /** Languages written without spaces (Chinese, Japanese) join segments without one. */
  setSeparator(separator: string): void {
    this.separator = separator;
  }

  get text(): string {
    return this.parts.text;
  }

  /**
   * The running text as a TextSource: a part from offset `start` costs the part's length. Each
   * transcript has its own: after clear or load, an earlier one still reads its own text.
   */
  get textSource(): TextSource {
    return this.source;
  }

  /** Every final segment, in order. Append-only: read, never mutate. */
  get segments(): readonly Segment[] {
    return this.parts.segments;
  }

  get interim(): string {
    return this.interimText;
  }

  get isEmpty(): boolean {
    return this.parts.segments.length === 0;
  }

  readonly getChapters = (): readonly TranscriptChapter[] => this.chapterList;
  readonly getInterim = (): string => this.interimText;

  readonly subscribe = (listener: Listener): (() => void) => {
    this.finalListeners.add(listener);
    return () => this.finalListeners.delete(listener);
  };

  readonly subscribeInterim = (listener: Listener): (() => void) => {
    this.interimListeners.add(listener);
    return () => this.interimListeners.delete(listener);
  };

  /** Called with each new final segment (the live region, caption mode). */
  onAppend(listener: (segment: Segment) => void): () => void {
    this.appendListeners.add(listener);
    return () => this.appendListeners.delete(listener);
  }

  append(segment: Segment): void {
    const text = trimSpaces(segment.text);
    if (!text) return;
    const clean = text === segment.text ? segment : { ...segment, text };
    this.push(clean);
    this.emit(this.finalListeners);
    for (const listener of this.appendListeners) listener(clean);
  }

  /** Many segments at once (a restored transcript): one notification. */
  load(segments: readonly Segment[]): void {
    this.reset();
    for (const segment of segments) {
      const text = trimSpaces(segment.text);
      if (text) this.push(text === segment.text ? segment : { ...segment, text });
    }
    this.emit(this.finalListeners);
    this.emit(this.interimListeners);
  }

  setInterim(text: string): void {
    if (text === this.interimText) return;
    this.interimText = text;
    this.emit(this.interimListeners);
  }

  clear(): void {
    this.reset();
    this.emit(this.finalListeners);
    this.emit(this.interimListeners);
  }

  private reset(): void {
    this.parts = noParts();
    this.source = sourceOf(this.parts);
    this.chapterList = [];
    this.interimText = '';
  }

  private push(segment: Segment): void {
    const parts = this.parts;
    const index = parts.segments.length;
    const previous = parts.segments[index - 1];
    parts.segments.push(segment);
    const join = joinFor(previous?.text, segment.text, this.separator);
    parts.joins.push(join);
    parts.offsets.push(parts.text.length + join.length);
    parts.text += join + segment.text;

    const chapters = this.chapterList;
    const lastChapter = chapters[chapters.length - 1];
    const lastBlock = lastChapter?.blocks[lastChapter.blocks.length - 1];
    const paragraphBreak = previous !== undefined && (PARAGRAPH_START.test(segment.text) || PARAGRAPH_END.test(previous.text));
    if (lastChapter && lastBlock && lastBlock.segments.length < BLOCK_MAX && !paragraphBreak) {
      const block: TranscriptBlock = {
        key: lastBlock.key,
        first: lastBlock.first,
        segments: [...lastBlock.segments, segment],
        text: lastBlock.text + join + segment.text,
      };
      const chapter: TranscriptChapter = { key: lastChapter.key, blocks: [...lastChapter.blocks.slice(0, -1), block] };
      this.chapterList = [...chapters.slice(0, -1), chapter];
      return;
    }
    const block: TranscriptBlock = { key: this.nextKey++, first: index, segments: [segment], text: segment.text };
    if (lastChapter && lastChapter.blocks.length < CHAPTER_MAX) {
      this.chapterList = [...chapters.slice(0, -1), { key: lastChapter.key, blocks: [...lastChapter.blocks, block] }];
    } else {
      this.chapterList = [...chapters, { key: this.nextKey++, blocks: [block] }];
    }
  }

  private emit(listeners: Set<Listener>): void {
    for (const listener of listeners) listener();
  }
}
