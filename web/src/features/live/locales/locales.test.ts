import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n';
import '../i18n';
import en from './en.json';
import es from './es.json';
import pt from './pt.json';

/** Every leaf as "a.b.c" -> value. */
function flatten(tree: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (typeof tree === 'object' && tree !== null && !Array.isArray(tree)) {
    for (const [key, value] of Object.entries(tree)) {
      for (const [k, v] of flatten(value, prefix ? `${prefix}.${key}` : key)) out.set(k, v);
    }
  } else out.set(prefix, tree);
  return out;
}

const tokens = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
const source = flatten(en);

describe('live sharing copy (the i18next namespace "live")', () => {
  for (const [lang, copy] of Object.entries({ pt, es })) {
    it(`${lang} has exactly the keys of en, each non-empty, different from the English and with the same interpolations`, () => {
      const flat = flatten(copy);
      expect({ missing: [...source.keys()].filter((k) => !flat.has(k)), extra: [...flat.keys()].filter((k) => !source.has(k)) }).toEqual({
        missing: [],
        extra: [],
      });
      for (const [key, value] of source) {
        const translated = flat.get(key);
        expect(typeof translated, key).toBe('string');
        expect((translated as string).trim(), key).not.toBe('');
        expect(translated, key).not.toBe(value);
        expect(tokens(translated as string), key).toEqual(tokens(value as string));
      }
    });
  }

  it('is registered for every UI language, with plural forms of the viewer count', () => {
    expect(i18n.t('share.viewers', { ns: 'live', lng: 'pt', count: 1 })).toBe('1 pessoa acompanhando');
    expect(i18n.t('share.viewers', { ns: 'live', lng: 'es', count: 4 })).toBe('4 personas siguiendo');
    expect(i18n.t('viewer.ended', { ns: 'live', lng: 'en' })).toBe('The speaker stopped sharing.');
  });
});
