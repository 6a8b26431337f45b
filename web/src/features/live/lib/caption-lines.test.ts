import { describe, expect, it } from 'vitest';
import { lastCaptionLines } from './caption-lines';

/** One unit per character: a width of 10 holds 10 characters. */
const chars = (text: string) => text.length;

describe('lastCaptionLines', () => {
  it('wraps words from the start and keeps only the last lines', () => {
    const text = 'one two three four five six seven eight';
    // Width 9: 'one two three' and 'three four' are too wide.
    expect(lastCaptionLines(text, 10, 9, chars).lines).toEqual(['one two', 'three', 'four five', 'six seven', 'eight']);
    expect(lastCaptionLines(text, 2, 9, chars).lines).toEqual(['six seven', 'eight']);
  });

  it('never re-flows a line shown: new words only add at the end', () => {
    const before = lastCaptionLines('the quick brown fox', 3, 10, chars).lines;
    const after = lastCaptionLines('the quick brown fox jumps over', 3, 10, chars).lines;
    expect(before).toEqual(['the quick', 'brown fox']);
    expect(after.slice(0, 2)).toEqual(before);
  });

  it('answers where the first kept line starts, and wrapping from there gives the same lines', () => {
    const text = 'alpha beta gamma delta epsilon zeta eta theta';
    const { lines, start } = lastCaptionLines(text, 2, 11, chars);
    expect(text.slice(start).startsWith(lines[0]!)).toBe(true);
    expect(lastCaptionLines(text.slice(start), 2, 11, chars).lines).toEqual(lines);
  });

  it('starts a line at each paragraph and collapses white space', () => {
    expect(lastCaptionLines('hello   there\n\nnew  paragraph here', 5, 40, chars).lines).toEqual(['hello there', 'new paragraph here']);
  });

  it('gives a word wider than the line a line of its own', () => {
    expect(lastCaptionLines('a incomprehensibilities b', 5, 6, chars).lines).toEqual(['a', 'incomprehensibilities', 'b']);
  });

  it('has no lines for empty or blank text, and keeps at least one line', () => {
    expect(lastCaptionLines('', 2, 10, chars)).toEqual({ lines: [], start: 0 });
    expect(lastCaptionLines('   ', 2, 10, chars).lines).toEqual([]);
    expect(lastCaptionLines('aa bb cc', 0, 2, chars).lines).toEqual(['cc']);
  });
});
