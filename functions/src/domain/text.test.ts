import { decodeTime } from 'ulid';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CHUNK_CHARS, CHUNK_SEGMENTS, decodeCursor, decodeSearchable, encodeSearchable, encodeCursor, indexFrom, monthRange, normaliseForSearch, packSegments, placeSegments, preview, splitIntoChunks, unpackSegments, type StoredSegment } from './text.ts';

describe('normaliseForSearch', () => {
  it('drops case and accents but keeps other scripts', () => {
    expect(normaliseForSearch('Transcrição ÉLAN Año')).toBe('transcricao elan ano');
    expect(normaliseForSearch('Привет Мир')).toBe('привет мир');
    expect(normaliseForSearch('你好')).toBe('你好');
    expect(normaliseForSearch('한국어')).toBe('한국어');
  });
});

describe('encodeSearchable', () => {
  it.each([
    'Olá, Transcrição! ÀÉÎÕÜ ç',
    'Съешь же ещё этих мягких французских булок — Йод',
    'مَرْحَبًا بِالعالم',
    'שָׁלוֹם עולם',
    '你好，世界。繁體字',
    'e\u0301 decomposed, ﬁ ligature, İstanbul, ß, Σίσυφος',
    'emoji 🙂👍🏽 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
    '',
  ])('round-trips %j exactly and searches it folded', (text) => {
    const s = encodeSearchable(text, 'overlap');
    expect(s.n.startsWith('overlap')).toBe(true);
    expect(decodeSearchable(s)).toBe(text);
    expect(s.n.slice(s.o)).toBe(normaliseForSearch(text));
  });

  it('stores mostly-plain text at about its own size', () => {
    const text = 'Então vamos falar sobre a transcrição automática de reuniões longas. ';
    const s = encodeSearchable(text, '');
    expect(s.n.length + s.x.length).toBeLessThan(text.length * 1.4);
  });
});

describe('splitIntoChunks', () => {
  it('never splits a surrogate pair and covers the text exactly', () => {
    const text = 'a' + '🙂'.repeat(CHUNK_CHARS);
    const pieces = splitIntoChunks(text, 10, [], 'before');
    const texts = pieces.map(decodeSearchable);
    expect(texts.join('')).toBe(text);
    for (const t of texts) expect(() => encodeURIComponent(t)).not.toThrow();
    expect(pieces[0]!.offset).toBe(10);
    expect(pieces[1]!.offset).toBe(10 + pieces[0]!.l);
  });

  it('repeats the previous tail in the search copy, so matches across a boundary are found', () => {
    const text = 'x'.repeat(CHUNK_CHARS - 3) + 'Ação';
    const pieces = splitIntoChunks(text, 0, [], '');
    expect(pieces).toHaveLength(2);
    expect(pieces[1]!.n).toContain('acao');
  });

  it('caps segments per chunk', () => {
    const words = Array.from({ length: CHUNK_SEGMENTS + 10 }, (_, i) => `w${i}`);
    const text = words.join(' ');
    const placed = placeSegments(text, 0, words.map((w, i) => ({ text: w, startMs: i, endMs: i + 1 })));
    const segs = 'placed' in placed ? placed.placed : [];
    const pieces = splitIntoChunks(text, 0, segs, '');
    expect(pieces).toHaveLength(2);
    expect(pieces[0]!.seg).toHaveLength(CHUNK_SEGMENTS);
    expect(pieces.flatMap((p) => p.seg)).toHaveLength(words.length);
  });
});

describe('placeSegments', () => {
  it('checks a segment that gives its place there, in the whole transcript', () => {
    expect(placeSegments(' aa bb aa', 100, [
      { text: 'aa', startMs: 0, endMs: 1, at: 107 },
      { text: 'bb', startMs: 1, endMs: 2 },
    ])).toHaveProperty('error'); // 'bb' would have to come after the 'aa' at 107
    expect(placeSegments(' aa bb aa', 100, [
      { text: 'aa', startMs: 0, endMs: 1, at: 101 },
      { text: 'bb', startMs: 1, endMs: 2 },
      { text: 'aa', startMs: 2, endMs: 3, at: 107 },
    ])).toEqual({ placed: [[0, 1, 101, 2], [1, 2, 104, 2], [2, 3, 107, 2]] });
  });

  it('refuses a place where the text is not, before the request, or before the previous segment ends', () => {
    const seg = (text: string, at: number) => ({ text, startMs: 0, endMs: 1, at });
    expect(placeSegments('aa bb', 10, [seg('bb', 12)])).toHaveProperty('error');
    expect(placeSegments('aa bb', 10, [seg('aa', 0)])).toHaveProperty('error');
    expect(placeSegments('aa bb', 10, [seg('bb', 13), seg('bb', 13)])).toHaveProperty('error');
    expect(placeSegments('aa bb', 10, [seg('bb', 13)])).toEqual({ placed: [[0, 1, 13, 2]] });
  });

  it('places each segment after the previous one, skipping empty ones', () => {
    expect(placeSegments('aa bb aa', 100, [
      { text: 'aa', startMs: 0, endMs: 1 },
      { text: '', startMs: 1, endMs: 2 },
      { text: 'aa', startMs: 2, endMs: 3 },
    ])).toEqual({ placed: [[0, 1, 100, 2], [2, 3, 106, 2]] });
  });

  it('refuses, naming it, a segment that does not occur after the previous one', () => {
    const seg = (text: string) => ({ text, startMs: 0, endMs: 1 });
    expect(placeSegments('aa bb', 0, [seg('aa'), seg('zz'), seg('bb')])).toEqual({
      error: 'Segment 2 does not match the text: segments must occur in it in order',
    });
    // Overlapping, or out of order: each must start after the previous one ends.
    expect(placeSegments('abcd', 0, [seg('abc'), seg('bcd')])).toHaveProperty('error');
    expect(placeSegments('aa bb', 0, [seg('bb'), seg('aa')])).toHaveProperty('error');
  });
});

describe('monthRange', () => {
  it('covers the month in the caller time zone', () => {
    const { lo, hi } = monthRange('2026-02', -180);
    expect(new Date(decodeTime(lo)).toISOString()).toBe('2026-02-01T03:00:00.000Z');
    expect(new Date(decodeTime(hi.slice(0, 10) + '0'.repeat(16))).toISOString()).toBe('2026-03-01T02:59:59.999Z');
  });
});

describe('cursor and preview', () => {
  it('round-trips a cursor and refuses forgeries', () => {
    const id = '01KA0000000000000000000000';
    expect(decodeCursor(encodeCursor(id))).toBe(id);
    expect(decodeCursor('bm9wZQ')).toBeUndefined();
  });
  it('cuts a preview at 200 characters without half an emoji', () => {
    expect(preview('a'.repeat(199) + '🙂')).toBe('a'.repeat(199));
    expect(preview('short')).toBe('short');
  });
});

describe('packed segments', () => {
  it('round-trip exactly, including zeros and large offsets', () => {
    const stored: StoredSegment[] = [[0, 0, 0, 1], [12_345, 67_890, 1_234_567, 42], [43_199_000, 43_200_000, 9_999_999, 16_000]];
    const packed = packSegments(stored);
    expect(unpackSegments(packed)).toEqual(stored);
    expect(packed).not.toContain('[');
    expect(unpackSegments('')).toEqual([]);
    expect(packSegments([])).toBe('');
  });

  it('stay smaller than the list form', () => {
    const stored: StoredSegment[] = Array.from({ length: CHUNK_SEGMENTS }, (_, i) => [i * 3_000, i * 3_000 + 2_500, i * 12, 11]);
    expect(packSegments(stored).length).toBeLessThan(JSON.stringify(stored).length * 0.75);
  });
});

describe('indexFrom', () => {
  it('finds what indexOf finds, from any start', () => {
    const text = fc.stringMatching(/^[ab ]{0,60}$/);
    fc.assert(
      fc.property(text, text, fc.nat({ max: 70 }), (haystack, needle, from) => {
        expect(indexFrom(haystack, needle, from)).toBe(needle === '' && from > haystack.length ? -1 : haystack.indexOf(needle, from));
      }),
      { numRuns: 2_000 },
    );
  });
});
