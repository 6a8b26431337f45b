import { describe, expect, it } from 'vitest';
import { countWords, graphemeCount, graphemes, lineTokens } from './text-segments.ts';

const shown = (text: string, language?: string) => lineTokens(text, language).map((t) => `${t.spaced ? '_' : ''}${t.text}`);

describe('countWords', () => {
  it.each([
    { language: 'en-US', text: 'Hello, world! It’s 3.5 km away.', words: 6 },
    { language: 'ja-JP', text: '今日は良い天気ですね。', words: 6 },
    { language: 'zh-CN', text: '今天我们讨论语音识别技术。', words: 6 },
    { language: 'th-TH', text: 'สวัสดีครับวันนี้อากาศดี', words: 6 },
    { language: 'ar-SA', text: 'مرحبا بكم في البرنامج، شكرا!', words: 5 },
    { language: 'he-IL', text: 'שלום לכולם, ברוכים הבאים.', words: 4 },
  ])('counts $words words of $language, punctuation none', ({ language, text, words }) => {
    expect(countWords(text, language)).toBe(words);
  });

  it('counts nothing in empty text or punctuation', () => {
    expect(countWords('', 'en-US')).toBe(0);
    expect(countWords(' … — !', 'ja-JP')).toBe(0);
  });
});

describe('graphemes', () => {
  it('keeps an emoji with its modifiers and a letter with its marks as one character', () => {
    expect(graphemes('👍🏽é👨‍👩‍👧')).toEqual(['👍🏽', 'é', '👨‍👩‍👧']);
    expect(graphemeCount('नमस्ते')).toBe(3);
  });
});

describe('lineTokens', () => {
  it('keeps punctuation with its word and remembers the spaces between words', () => {
    expect(shown('we begin, slowly. "Quoted" (yes) ¿qué?')).toEqual(['we', '_begin,', '_slowly.', '_"Quoted"', '_(yes)', '_¿qué?']);
  });

  it('splits Chinese, Japanese and Thai into words joined with nothing, Latin words kept whole', () => {
    expect(shown('今日は「天気」です。', 'ja-JP')).toEqual(['今日', 'は', '「天気」', 'です。']);
    expect(shown('我用 iPhone 手机录音', 'zh-CN')).toEqual(['我', '用', '_iPhone', '_手机', '录音']);
    expect(shown('สวัสดีครับวันนี้', 'th-TH')).toEqual(['สวัสดี', 'ครับ', 'วัน', 'นี้']);
  });

  it('marks a line break in the white space before a token', () => {
    const tokens = lineTokens('one\n\ntwo three', 'en-US');
    expect(tokens.map((t) => t.newline)).toEqual([false, true, false]);
    expect(tokens.map((t) => t.index)).toEqual([0, 5, 9]);
  });

  it('gives every character of the text to a token, in order', () => {
    const text = ' مرحبا بكم، في "البرنامج" 2024. ';
    expect(lineTokens(text, 'ar-SA').map((t) => t.text).join('')).toBe(text.replace(/\s+/g, ''));
  });
});
