import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n';
import '../i18n';
import { expectSameKeys, expectSameTokens, flattenCopy } from '../../../test/copy';
import en from './en.json';
import es from './es.json';
import pt from './pt.json';

const source = flattenCopy(en);

describe('caption style copy (the i18next namespace "captionStyle")', () => {
  for (const [lang, copy] of Object.entries({ pt, es })) {
    it(`${lang} has exactly the keys of en, each non-empty, different from the English and with the same interpolations`, () => {
      const flat = flattenCopy(copy);
      expectSameKeys(source, flat);
      expectSameTokens(source, flat);
      for (const [key, value] of source) expect(flat.get(key), key).not.toBe(value);
    });
  }

  it('is registered for every UI language', () => {
    expect(i18n.t('positions.lowerThird', { ns: 'captionStyle', lng: 'pt' })).toBe('Terço inferior');
    expect(i18n.t('contrast', { ns: 'captionStyle', lng: 'es', ratio: '3.2' })).toBe('Contraste 3.2:1');
  });
});
