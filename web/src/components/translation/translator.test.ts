import { describe, expect, it } from 'vitest';
import { getTranslatorApi, PieceTranslator, translatorLanguage, type TranslatorInstance } from './translator';

describe('getTranslatorApi', () => {
  it('finds self.Translator only when it has availability() and create()', () => {
    expect(getTranslatorApi({})).toBeUndefined();
    expect(getTranslatorApi({ Translator: { availability: () => undefined } })).toBeUndefined();
    const api = { availability: () => undefined, create: () => undefined };
    expect(getTranslatorApi({ Translator: api })).toBe(api);
  });

  it('takes the language of a recognition locale', () => {
    expect(translatorLanguage('pt-BR')).toBe('pt');
    expect(translatorLanguage('zh-CN')).toBe('zh');
    expect(translatorLanguage('zh-TW')).toBe('zh-Hant');
    expect(translatorLanguage('yue-Hant-HK')).toBe('yue');
    expect(translatorLanguage('fil-PH')).toBe('fil');
  });
});

describe('PieceTranslator', () => {
  it('translates each piece once, in order, even when later ones answer first', async () => {
    const calls: string[] = [];
    const delays: Record<string, number> = { one: 30, two: 0, three: 10 };
    const translator: TranslatorInstance = {
      translate: (text) => {
        calls.push(text);
        return new Promise((resolve) => setTimeout(() => resolve(text.toUpperCase()), delays[text] ?? 0));
      },
    };
    const out: [number, string][] = [];
    const pieces = new PieceTranslator(translator, (i, text) => out.push([i, text]));
    pieces.push('one');
    pieces.push('two');
    pieces.push('three');
    await pieces.idle();
    expect(out).toEqual([
      [0, 'ONE'],
      [1, 'TWO'],
      [2, 'THREE'],
    ]);
    expect(calls).toEqual(['one', 'two', 'three']);
    pieces.push('four');
    await pieces.idle();
    expect(calls).toEqual(['one', 'two', 'three', 'four']);
  });

  it('shows the original of a piece that fails, and nothing after stop()', async () => {
    let destroyed = false;
    const translator: TranslatorInstance = {
      translate: (text) => (text === 'bad' ? Promise.reject(new Error('nope')) : Promise.resolve(`[${text}]`)),
      destroy: () => (destroyed = true),
    };
    const out: [number, string, boolean][] = [];
    const pieces = new PieceTranslator(translator, (i, text, failed) => out.push([i, text, failed]));
    pieces.push('bad');
    pieces.push('good');
    await pieces.idle();
    pieces.stop();
    pieces.push('late');
    await pieces.idle();
    expect(out).toEqual([
      [0, 'bad', true],
      [1, '[good]', false],
    ]);
    expect(destroyed).toBe(true);
  });
});
