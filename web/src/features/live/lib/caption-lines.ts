import { lineTokens } from '@app/shared/text-segments';

/** How wide a piece of text is, in the same unit as the width it must fit in. */
export type Measure = (text: string) => number;

export interface CaptionLines {
  /** The last lines, oldest first (at most the number asked for). */
  lines: string[];
  /**
   * Where the first of `lines` starts in the text: wrapping `text.slice(start)` again gives the
   * same lines, so older text can be dropped.
   */
  start: number;
}

/**
 * The last `count` lines of `text` as captions roll up: each paragraph (a line break) starts a
 * line, and words fill a line from its start until the next word would pass `width` (a word
 * wider than a whole line gets a line of its own). Words are the language's (`lineTokens`): a
 * Chinese, Japanese or Thai line breaks between words though no space separates them, and
 * punctuation stays with its word. Lines break from the start of the text, so a line once shown
 * never re-flows as more words arrive; runs of white space count as one space.
 */
export function lastCaptionLines(text: string, count: number, width: number, measure: Measure, language?: string | null): CaptionLines {
  const all: { text: string; start: number }[] = [];
  let line: { text: string; start: number } | null = null;
  for (const token of lineTokens(text, language)) {
    const joined = line && !token.newline ? `${line.text}${token.spaced ? ' ' : ''}${token.text}` : null;
    if (line && joined !== null && measure(joined) <= width) {
      line.text = joined;
    } else {
      if (line) all.push(line);
      line = { text: token.text, start: token.index };
    }
  }
  if (line) all.push(line);
  const kept = all.slice(-Math.max(1, count));
  return { lines: kept.map((l) => l.text), start: kept[0]?.start ?? text.length };
}
