import { describe, expect, it } from 'vitest';
import { FEATURED_RECOGNITION_LANGUAGES, FREE_RECOGNITION_LANGUAGE, joinsWithoutSpaces, RECOGNITION_LANGUAGE_COUNT, rtlByScript, textDirection } from './constants.ts';
import { isRecognitionLanguage, RECOGNITION_LANGUAGES } from './recognition-languages.ts';

describe('recognition languages', () => {
  it('are canonical BCP-47 tags with a region, each once', () => {
    for (const tag of RECOGNITION_LANGUAGES) {
      expect(Intl.getCanonicalLocales(tag)).toEqual([tag]);
      expect(new Intl.Locale(tag).region, tag).toMatch(/^[A-Z]{2}$/);
    }
    expect(new Set(RECOGNITION_LANGUAGES).size).toBe(RECOGNITION_LANGUAGES.length);
    expect(new Set(RECOGNITION_LANGUAGES.map((t) => new Intl.Locale(t).language)).size).toBeGreaterThanOrEqual(60);
  });

  it('start with the featured ones, the free one first', () => {
    expect(RECOGNITION_LANGUAGES.slice(0, FEATURED_RECOGNITION_LANGUAGES.length)).toEqual([...FEATURED_RECOGNITION_LANGUAGES]);
    expect(FEATURED_RECOGNITION_LANGUAGES[0]).toBe(FREE_RECOGNITION_LANGUAGE);
  });

  it('hold as many languages as the plan copy states', () => {
    expect(new Set(RECOGNITION_LANGUAGES.map((t) => new Intl.Locale(t).language)).size).toBe(RECOGNITION_LANGUAGE_COUNT);
  });

  it('are told apart from other strings exactly', () => {
    expect(isRecognitionLanguage('ja-JP')).toBe(true);
    expect(isRecognitionLanguage('ja-jp')).toBe(false);
    expect(isRecognitionLanguage('xx-XX')).toBe(false);
    expect(isRecognitionLanguage(42)).toBe(false);
  });
});

describe('textDirection', () => {
  it('is right to left for the Arabic, Hebrew, Persian and Urdu locales, left to right for the others', () => {
    const rtl = RECOGNITION_LANGUAGES.filter((l) => textDirection(l) === 'rtl');
    expect(new Set(rtl.map((l) => l.split('-')[0]))).toEqual(new Set(['ar', 'he', 'fa', 'ur']));
    expect(rtl).toContain('ar-SA');
    expect(textDirection('ja-JP')).toBe('ltr');
    expect(textDirection('en-US')).toBe('ltr');
  });

  it('without the browser’s text info, the language’s script gives the same answer', () => {
    const byScript = (tag: string) => rtlByScript(new Intl.Locale(tag));
    for (const tag of RECOGNITION_LANGUAGES) expect(byScript(tag), tag).toBe(textDirection(tag) === 'rtl');
    for (const tag of ['ps-AF', 'ckb-IQ', 'yi-001', 'dv-MV', 'ug-CN', 'sd-PK', 'pa-Arab-PK']) expect(byScript(tag), tag).toBe(true);
    for (const tag of ['az-Latn-AZ', 'ku-TR', 'pa-IN', 'tr-TR']) expect(byScript(tag), tag).toBe(false);
  });

  it('leaves the guess to the browser when no language is known', () => {
    expect(textDirection(null)).toBe('auto');
    expect(textDirection(undefined)).toBe('auto');
  });
});

describe('joinsWithoutSpaces', () => {
  it('is true for Chinese, Japanese and Cantonese only', () => {
    expect(RECOGNITION_LANGUAGES.filter(joinsWithoutSpaces)).toEqual(['zh-CN', 'ja-JP', 'yue-Hant-HK', 'zh-TW']);
  });
});
