/**
 * Words and characters of text in any script, by Unicode's segmentation rules (Intl.Segmenter):
 * Chinese, Japanese and Thai words though no space separates them, and user-perceived characters
 * (graphemes: an emoji with its modifiers, a letter with its combining marks, a Devanagari
 * cluster) that a line never splits. Where the runtime has no Intl.Segmenter, words are the runs
 * between white space and characters are code points.
 */

type Granularity = 'word' | 'grapheme';

const segmenters = new Map<string, Intl.Segmenter | null>();

/** One segmenter per language and granularity (each costs locale data to build). */
function segmenter(language: string | null | undefined, granularity: Granularity): Intl.Segmenter | null {
  const key = `${granularity}:${language ?? ''}`;
  let found = segmenters.get(key);
  if (found === undefined) {
    try {
      found = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(language || undefined, { granularity }) : null;
    } catch {
      // A tag the runtime refuses: the runtime's default locale segments the same scripts.
      found = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity }) : null;
    }
    segmenters.set(key, found);
  }
  return found;
}

/** The text's user-perceived characters. */
export function graphemes(text: string): string[] {
  const s = segmenter(null, 'grapheme');
  return s ? Array.from(s.segment(text), (g) => g.segment) : Array.from(text);
}

/** How many user-perceived characters the text has. */
export function graphemeCount(text: string): number {
  const s = segmenter(null, 'grapheme');
  if (!s) return Array.from(text).length;
  let n = 0;
  for (const _ of s.segment(text)) n++;
  return n;
}

/** How many words the text has in its language: 今日は良い天気ですね is 6 (今日 は 良い 天気 です ね), punctuation none. */
export function countWords(text: string, language: string | null | undefined): number {
  const s = segmenter(language, 'word');
  if (!s) return text.split(/\s+/u).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  let n = 0;
  for (const part of s.segment(text)) if (part.isWordLike) n++;
  return n;
}

/** A piece of text a line may start with: a word with the punctuation around it. */
export interface LineToken {
  text: string;
  /** Where it starts in the text. */
  index: number;
  /** Whether white space separates it from the token before (joined with a space on a line, else with nothing). */
  spaced: boolean;
  /** Whether a line break (a paragraph, a spoken new line) is in that white space. */
  newline: boolean;
}

/**
 * The text as tokens a line breaks between: each word with the punctuation that follows it (a
 * comma or a full stop never starts a line) and the opening punctuation before it; white space
 * between tokens is remembered, not kept (punctuation between two spaces is a token of its own).
 * Words of a script without spaces (Chinese, Japanese, Thai...) are tokens of their own, joined
 * with nothing, so such a line breaks between words.
 */
export function lineTokens(text: string, language: string | null | undefined): LineToken[] {
  const out: LineToken[] = [];
  let spaced = false;
  let newline = false;
  /** Opening punctuation waiting for its word. */
  let opening: { text: string; index: number } | null = null;
  const push = (piece: string, index: number, wordLike: boolean) => {
    const last = out.at(-1);
    if (opening) {
      out.push({ text: opening.text + piece, index: opening.index, spaced, newline });
      opening = null;
    } else if (!wordLike && (spaced || !last || /^[\p{Ps}\p{Pi}]/u.test(piece))) {
      // Opening punctuation (a bracket, 「, or any after white space: a quote, ¿, ¡) stays with the word after it.
      opening = { text: piece, index };
      return;
    } else if (last && !spaced && !wordLike) {
      // Punctuation (or a symbol) after a word, with no space between: it stays with the word.
      last.text += piece;
    } else {
      out.push({ text: piece, index, spaced, newline });
    }
    spaced = false;
    newline = false;
  };
  /** Opening punctuation followed by white space is a token of its own. */
  const flushOpening = () => {
    const pending = opening as { text: string; index: number } | null;
    if (!pending) return;
    out.push({ text: pending.text, index: pending.index, spaced, newline });
    opening = null;
    spaced = false;
    newline = false;
  };
  const space = (white: string) => {
    flushOpening();
    if (out.length === 0) return;
    spaced = true;
    newline ||= white.includes('\n');
  };
  const s = segmenter(language, 'word');
  if (!s) {
    for (const m of text.matchAll(/\s+|\S+/gu)) {
      if (/^\s/u.test(m[0])) space(m[0]);
      else push(m[0], m.index, true);
    }
  } else {
    for (const part of s.segment(text)) {
      if (/^\s+$/u.test(part.segment)) space(part.segment);
      else push(part.segment, part.index, part.isWordLike === true);
    }
  }
  flushOpening();
  return out;
}
