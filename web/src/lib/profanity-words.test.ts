import { describe, expect, it } from 'vitest';
import { loadProfanityWords } from './profanity-words';

describe('profanity word lists', () => {
  it("load the recognition language's list from naughty-words, once; none for a language without one", async () => {
    const en = await loadProfanityWords('en-US');
    expect(en).toContain('fuck');
    expect(await loadProfanityWords('en-GB')).toBe(en);
    expect(await loadProfanityWords('pt-BR')).toContain('merda');
    expect(await loadProfanityWords('he-IL')).toEqual([]);
  });
});
