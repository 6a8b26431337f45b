import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { alignRuns, myers, retimeSegments } from './retime.ts';
import type { StoredSegment } from './text.ts';

/** Segments laid end to end with one space between, each a second long. */
function layout(parts: string[]): { text: string; segs: StoredSegment[] } {
  const segs: StoredSegment[] = [];
  let at = 0;
  parts.forEach((p, i) => {
    segs.push([i * 1000, i * 1000 + 900, at, p.length]);
    at += p.length + 1;
  });
  return { text: parts.join(' '), segs };
}

const textsOf = (text: string, segs: StoredSegment[]) => segs.map(([, , at, len]) => text.slice(at, at + len));
const timesOf = (segs: StoredSegment[]) => segs.map(([s, e]) => [s, e]);

function expectOrdered(segs: StoredSegment[], textLength: number) {
  let prevStart = 0;
  let prevEnd = 0;
  for (const [s, e, at, len] of segs) {
    expect(s).toBeGreaterThanOrEqual(prevStart);
    expect(e).toBeGreaterThanOrEqual(s);
    expect(at).toBeGreaterThanOrEqual(prevEnd);
    expect(len).toBeGreaterThan(0);
    expect(at + len).toBeLessThanOrEqual(textLength);
    prevStart = s;
    prevEnd = at + len;
  }
}

describe('retimeSegments', () => {
  const old = layout(['Hello there.', 'How are you?', 'Fine, thanks.']);

  it('keeps every segment as it was when nothing changed', () => {
    expect(retimeSegments(old.text, old.segs, old.text)).toEqual(old.segs);
  });

  it('a word changed inside a segment stays in it, with its times; the others move with their text', () => {
    const text = 'Hello there. How old are you really? Fine, thanks.';
    const segs = retimeSegments(old.text, old.segs, text);
    expect(textsOf(text, segs)).toEqual(['Hello there.', 'How old are you really?', 'Fine, thanks.']);
    expect(timesOf(segs)).toEqual(timesOf(old.segs));
  });

  it('drops a segment whose text was deleted', () => {
    const text = 'Hello there. Fine, thanks.';
    const segs = retimeSegments(old.text, old.segs, text);
    expect(textsOf(text, segs)).toEqual(['Hello there.', 'Fine, thanks.']);
    expect(timesOf(segs)).toEqual([[0, 900], [2000, 2900]]);
  });

  it('text replacing several segments is shared among them at word boundaries', () => {
    const text = 'Hello there. Something entirely different was said here instead';
    const segs = retimeSegments(old.text, old.segs, text);
    expect(segs[0]).toEqual(old.segs[0]);
    expect(segs).toHaveLength(3);
    expect(textsOf(text, segs).slice(1).join(' ')).toBe('Something entirely different was said here instead');
    for (const t of textsOf(text, segs)) expect(t).toBe(t.trim());
    expectOrdered(segs, text.length);
  });

  it('text appended at the end joins the last segment; text put in front joins the first', () => {
    const appended = `${old.text} And you?`;
    expect(textsOf(appended, retimeSegments(old.text, old.segs, appended)).at(-1)).toBe('Fine, thanks. And you?');
    const prefixed = `Well. ${old.text}`;
    expect(textsOf(prefixed, retimeSegments(old.text, old.segs, prefixed))[0]).toBe('Well. Hello there.');
  });

  it('works on CJK text without spaces, one character a word', () => {
    const parts = ['今天天气很好。', '我们去公园吧。', '好的，走吧。'];
    const o = { text: parts.join(''), segs: [] as StoredSegment[] };
    let at = 0;
    parts.forEach((p, i) => {
      o.segs.push([i * 1000, i * 1000 + 900, at, p.length]);
      at += p.length;
    });
    const text = '今天天气很好。我们去图书馆吧。好的，走吧。';
    const segs = retimeSegments(o.text, o.segs, text);
    expect(textsOf(text, segs)).toEqual(['今天天气很好。', '我们去图书馆吧。', '好的，走吧。']);
    expect(timesOf(segs)).toEqual(timesOf(o.segs));
  });

  it('times never go backwards and segments stay in order, whatever the edit', () => {
    const word = fc.constantFrom('a', 'bb', 'ccc', 'Привет', '你好', 'x.', 'y?');
    fc.assert(
      fc.property(fc.array(fc.array(word, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 }), fc.array(word, { maxLength: 30 }), (sentences, newWords) => {
        const o = layout(sentences.map((s) => s.join(' ')));
        const text = newWords.join(' ');
        expectOrdered(retimeSegments(o.text, o.segs, text), text.length);
      }),
    );
  });

  it('unchanged segments keep their times and text after scattered edits of a 1.3 MB Russian text, quickly', () => {
    const parts = Array.from({ length: 20_000 }, (_, i) => `Съешь же ещё этих мягких французских булок номер ${i}.`);
    const o = layout(parts);
    expect(o.text.length).toBeGreaterThan(1_000_000);
    const edited = parts.map((p, i) => (i % 1000 === 500 ? p.replace('мягких', 'твёрдых') : p));
    const text = edited.join(' ');
    const t0 = performance.now();
    const segs = retimeSegments(o.text, o.segs, text);
    expect(performance.now() - t0).toBeLessThan(5_000);
    expect(textsOf(text, segs)).toEqual(edited);
    expect(timesOf(segs)).toEqual(timesOf(o.segs));
  });

  it('a text rewritten from end to end still gets ordered segments within the budget', () => {
    const parts = Array.from({ length: 20_000 }, (_, i) => `слово${i} другое${i % 7}.`);
    const o = layout(parts);
    const text = Array.from({ length: 30_000 }, (_, i) => `新${i % 13}`).join(' ');
    const t0 = performance.now();
    const segs = retimeSegments(o.text, o.segs, text);
    expect(performance.now() - t0).toBeLessThan(10_000);
    expectOrdered(segs, text.length);
    expect(segs.length).toBeGreaterThan(10_000);
  });
});

describe('myers', () => {
  it('finds a longest common subsequence', () => {
    const runs = myers(Int32Array.from([1, 2, 3, 4, 5]), Int32Array.from([1, 3, 4, 9, 5]))!;
    expect(runs.reduce((n, r) => n + r[2], 0)).toBe(4);
  });

  it('alignRuns maps shared stretches to the same text', () => {
    const a = 'one two three four';
    const b = 'one 2 three four five';
    for (const [x, y, len] of alignRuns(a, b)) expect(a.slice(x, x + len)).toBe(b.slice(y, y + len));
  });
});
