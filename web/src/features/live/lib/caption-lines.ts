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
 * wider than a whole line gets a line of its own). Lines break from the start of the text, so a
 * line once shown never re-flows as more words arrive; runs of white space count as one space.
 */
export function lastCaptionLines(text: string, count: number, width: number, measure: Measure): CaptionLines {
  const all: { text: string; start: number }[] = [];
  const word = /\S+/gu;
  let paragraphEnd = -1;
  let line: { text: string; start: number } | null = null;
  for (let m = word.exec(text); m; m = word.exec(text)) {
    // A line break between the previous word and this one starts a new paragraph.
    const newParagraph = line !== null && text.lastIndexOf('\n', m.index) > paragraphEnd;
    if (line && !newParagraph && measure(`${line.text} ${m[0]}`) <= width) {
      line.text += ` ${m[0]}`;
    } else {
      if (line) all.push(line);
      line = { text: m[0], start: m.index };
    }
    paragraphEnd = m.index + m[0].length;
  }
  if (line) all.push(line);
  const kept = all.slice(-Math.max(1, count));
  return { lines: kept.map((l) => l.text), start: kept[0]?.start ?? text.length };
}
