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
  } else {
    out.set(prefix, tree);
  }
  return out;
}

const tokens = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}|<\/?(\w+)>/g)].map((m) => m[0].replace(/\s/g, '')).sort();
const source = flatten(en);

describe('billing copy (the i18next namespace "billing")', () => {
  it('en has only non-empty string leaves', () => {
    for (const [key, value] of source) {
      expect(typeof value, key).toBe('string');
      expect((value as string).trim(), key).not.toBe('');
    }
  });

  for (const [lang, copy] of Object.entries({ pt, es })) {
    it(`${lang} has exactly the keys of en, each non-empty with the same interpolations`, () => {
      const flat = flatten(copy);
      expect({ missing: [...source.keys()].filter((k) => !flat.has(k)), extra: [...flat.keys()].filter((k) => !source.has(k)) }).toEqual({
        missing: [],
        extra: [],
      });
      for (const [key, value] of source) {
        const translated = flat.get(key);
        expect(typeof translated, key).toBe('string');
        expect((translated as string).trim(), key).not.toBe('');
        expect(tokens(translated as string), key).toEqual(tokens(value as string));
      }
    });
  }

  it('carries the product copy: Portuguese payment error and plan states', () => {
    expect(pt.pricing.paymentError).toBe('Erro no pagamento');
    expect(pt.success.proActive).toBe('Pro ativo');
    expect(pt.success.processing).toMatch(/^Processando/);
  });

  it('is registered for every UI language', () => {
    for (const lang of ['en', 'pt', 'es']) expect(i18n.hasResourceBundle(lang, 'billing')).toBe(true);
    expect(i18n.t('upgrade', { ns: 'billing', lng: 'es' })).toBe('Mejorar');
  });
});
