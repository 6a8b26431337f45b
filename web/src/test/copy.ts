import { expect, it } from 'vitest';
import { tokens } from './content-shape';

/** Every leaf of a locale tree as "a.b.c" -> value. */
export function flattenCopy(tree: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (typeof tree === 'object' && tree !== null && !Array.isArray(tree)) {
    for (const [key, value] of Object.entries(tree)) {
      for (const [k, v] of flattenCopy(value, prefix ? `${prefix}.${key}` : key)) out.set(k, v);
    }
  } else {
    out.set(prefix, tree);
  }
  return out;
}

/** Every leaf of the source (en) copy is a non-empty string. */
export function expectNonEmptyStrings(source: Map<string, unknown>): void {
  for (const [key, value] of source) {
    expect(typeof value, key).toBe('string');
    expect((value as string).trim(), key).not.toBe('');
  }
}

/** A translation has exactly the source's keys (none missing, none extra). */
export function expectSameKeys(source: Map<string, unknown>, translation: Map<string, unknown>): void {
  const missing = [...source.keys()].filter((k) => !translation.has(k));
  const extra = [...translation.keys()].filter((k) => !source.has(k));
  expect({ missing, extra }).toEqual({ missing: [], extra: [] });
}

/** Each translated text is a non-empty string keeping every interpolation and tag of the source's. */
export function expectSameTokens(source: Map<string, unknown>, translation: Map<string, unknown>): void {
  for (const [key, value] of source) {
    const translated = translation.get(key);
    expect(typeof translated, key).toBe('string');
    expect((translated as string).trim(), key).not.toBe('');
    expect(tokens(translated as string), key).toEqual(tokens(value as string));
  }
}

/** The copy holds exactly these texts (a pattern: matching it) at these key paths ("login.error"). */
export function expectCopy(tree: unknown, texts: Record<string, string | RegExp>): void {
  const flat = flattenCopy(tree);
  for (const [path, text] of Object.entries(texts)) {
    if (text instanceof RegExp) expect(flat.get(path), path).toMatch(text);
    else expect(flat.get(path), path).toBe(text);
  }
}

/**
 * One test per translation of a namespace: exactly the English keys, each non-empty, with the
 * same interpolations, and (unless `mayMatchEnglish`) each different from the English text.
 */
export function itTranslatesEveryKey(en: unknown, translations: Record<string, unknown>, { mayMatchEnglish = false } = {}): void {
  const source = flattenCopy(en);
  for (const [lang, copy] of Object.entries(translations)) {
    const rule = mayMatchEnglish ? 'each non-empty with the same interpolations' : 'each non-empty, different from the English and with the same interpolations';
    it(`${lang} has exactly the keys of en, ${rule}`, () => {
      const flat = flattenCopy(copy);
      expectSameKeys(source, flat);
      expectSameTokens(source, flat);
      if (!mayMatchEnglish) for (const [key, value] of source) expect(flat.get(key), key).not.toBe(value);
    });
  }
}
