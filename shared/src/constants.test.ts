import { describe, expect, it } from 'vitest';
import { RECOGNITION_LANGUAGES, textDirection } from './constants.ts';

describe('textDirection', () => {
  it('is right to left for Arabic and Hebrew, left to right for every other recognition language', () => {
    const rtl = RECOGNITION_LANGUAGES.filter((l) => textDirection(l) === 'rtl');
    expect(rtl).toEqual(['ar-SA', 'he-IL']);
    expect(RECOGNITION_LANGUAGES.filter((l) => textDirection(l) === 'ltr')).toHaveLength(RECOGNITION_LANGUAGES.length - 2);
  });

  it('leaves the guess to the browser when no language is known', () => {
    expect(textDirection(null)).toBe('auto');
    expect(textDirection(undefined)).toBe('auto');
  });
});
