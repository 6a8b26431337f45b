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

  it('breaks Chinese, Japanese and Thai lines between words, without spaces', () => {
    expect(lastCaptionLines('今日は良い天気ですね。明日も晴れるでしょう。', 10, 8, chars, 'ja-JP').lines).toEqual(['今日は良い天気', 'ですね。明日も', '晴れるでしょう。']);
    expect(lastCaptionLines('สวัสดีครับวันนี้อากาศดีมาก', 10, 12, chars, 'th-TH').lines).toEqual(['สวัสดีครับ', 'วันนี้อากาศ', 'ดีมาก']);
    const { lines, start } = lastCaptionLines('我们讨论语音识别技术的发展', 1, 6, chars, 'zh-CN');
    expect('我们讨论语音识别技术的发展'.slice(start)).toBe(lines[0]);
  });

  it('keeps punctuation with the word before it', () => {
    expect(lastCaptionLines('مرحبا بكم، في البرنامج.', 10, 10, chars, 'ar-SA').lines).toEqual(['مرحبا بكم،', 'في', 'البرنامج.']);
  });
});
