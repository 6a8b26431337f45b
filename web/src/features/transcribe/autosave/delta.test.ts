import type { Segment } from '@app/shared/schemas/transcriptions';
import { describe, expect, it } from 'vitest';
import {
  confirmed,
  continuedBy,
  hasWork,
  keepaliveDelta,
  KEEPALIVE_MAX_BYTES,
  metaChanged,
  nextDelta,
  NO_PLACEMENT,
  placeSegments,
  type Source,
} from './delta';
import type { PlacedSegment, QueueEntry } from './queue-storage';

/**
 * A queue entry whose unsent text is `text`, from `base` on, and the transcript it reads (whose
 * first `base` characters, which the server has, are filler here), with the segments placed in it.
 */
function entryOf(text: string, base = 0, segments: PlacedSegment[] = [], more: Partial<QueueEntry> = {}): { e: QueueEntry; source: Source } {
  const e: QueueEntry = {
    id: 'local', userId: 'u1', sessionId: 'S1', transcript: 't1', language: 'pt-BR', durationSec: 3, base, length: base + text.length,
    sentDurationSec: 3, sentLanguage: 'pt-BR', stopped: false, recording: false, owner: null, touchedAt: 0, changedAt: 0, ...more,
  };
  return { e, source: { text: '·'.repeat(base) + text, segments, segmentsFrom: 0 } };
}
const next = ({ e, source }: { e: QueueEntry; source: Source }, maxChars: number) => nextDelta(e, source, maxChars);
const seg = (text: string, at: number, startMs = 0): PlacedSegment => ({ text, startMs, endMs: startMs + 1000, at });
const said = (...texts: string[]): Segment[] => texts.map((text, i) => ({ text, startMs: i * 1000, endMs: i * 1000 + 1000 }));

describe('nextDelta', () => {
  it('sends the whole unsent text at base with its segments and their places in the transcript, the duration rounded', () => {
    const q = entryOf(' dois três', 2, [seg('um', 0), seg('dois', 3), seg('três', 8, 1000)], { durationSec: 2.6 });
    expect(next(q, 100)).toEqual({
      sessionId: 'S1',
      offset: 2,
      text: ' dois três',
      segments: [
        { text: 'dois', startMs: 0, endMs: 1000, at: 3 },
        { text: 'três', startMs: 1000, endMs: 2000, at: 8 },
      ],
      duration: 3,
      language: 'pt-BR',
    });
  });

  it('cuts a long tail after the last whole segment that fits, sending only the segments inside', () => {
    const delta = next(entryOf('aaaa bbbb cccc', 0, [seg('aaaa', 0), seg('bbbb', 5), seg('cccc', 10)]), 12);
    expect(delta.text).toBe('aaaa bbbb');
    expect(delta.segments.map((s) => s.text)).toEqual(['aaaa', 'bbbb']);
  });

  it('cuts at the limit when no segment ends within it, never inside a surrogate pair', () => {
    expect(next(entryOf('abcdef'), 4).text).toBe('abcd');
    expect(next(entryOf('ab😀cd'), 3).text).toBe('ab');
  });

  it('sends only what the entry stands for, and no segment the server refused', () => {
    const q = entryOf('um dois três', 0, [seg('um', 0), seg('dois', 3), seg('três', 8)]);
    q.e.length = 7;
    expect(next(q, 100)).toMatchObject({ text: 'um dois', segments: [{ text: 'um' }, { text: 'dois' }] });
    q.source.segmentsFrom = 3;
    expect(next(q, 100).segments.map((s) => s.text)).toEqual(['dois']);
  });

  it('after a 409 moved base back, resends from there out of the whole transcript', () => {
    const segments = [seg('primeira', 0), seg('parte', 9), seg('segunda', 15)];
    const q = { e: entryOf('').e, source: { text: 'primeira parte segunda', segments, segmentsFrom: 0 } };
    Object.assign(q.e, { base: 8, length: 22 });
    expect(next(q, 100)).toMatchObject({ offset: 8, text: ' parte segunda', segments: [{ text: 'parte', at: 9 }, { text: 'segunda', at: 15 }] });
  });

  it('sends a zero duration for a duration that is not a positive number', () => {
    expect(next(entryOf('x', 0, [], { durationSec: Number.NaN }), 10).duration).toBe(0);
    expect(next(entryOf('x', 0, [], { durationSec: -4 }), 10).duration).toBe(0);
  });
});

describe('keepaliveDelta', () => {
  it('is the longest delta (halving from a quarter of the limit) whose JSON fits a keepalive request, from base', () => {
    const text = 'Привет мир '.repeat(5_000);
    const { e, source } = entryOf(text, 7);
    const delta = keepaliveDelta(e, source)!;
    expect(new TextEncoder().encode(JSON.stringify(delta)).length).toBeLessThanOrEqual(KEEPALIVE_MAX_BYTES);
    expect(delta.offset).toBe(7);
    expect(text.startsWith(delta.text)).toBe(true);
    expect(delta.text.length).toBe(Math.floor(KEEPALIVE_MAX_BYTES / 4));
  });

  it('halves the delta until its JSON fits (characters JSON escapes take 6 bytes each)', () => {
    const { e, source } = entryOf('\u0001'.repeat(20_000));
    expect(keepaliveDelta(e, source)!.text.length).toBe(Math.floor(KEEPALIVE_MAX_BYTES / 8));
  });

  it('sends a short tail whole', () => {
    const { e, source } = entryOf(' fim', 10);
    expect(keepaliveDelta(e, source)).toMatchObject({ offset: 10, text: ' fim' });
  });
});

describe('confirmed', () => {
  it('moves base to what the server holds', () => {
    expect(confirmed(entryOf('um dois três').e, 7)).toBe(7);
  });

  it('changes nothing on a stale answer, and never passes the entry’s length', () => {
    const { e } = entryOf(' três', 7);
    expect(confirmed(e, 3)).toBe(7);
    expect(confirmed(e, 50)).toBe(12);
  });
});

describe('placeSegments', () => {
  it('places each new segment after the previous one, from where the last call stopped', () => {
    const first = placeSegments('sim não sim', said('sim', 'não'), NO_PLACEMENT);
    expect(first.placed.map((s) => s.at)).toEqual([0, 4]);
    expect(first.next).toEqual({ count: 2, cursor: 7 });
    const second = placeSegments('sim não sim', said('sim', 'não', 'sim'), first.next);
    expect(second.placed).toEqual([{ text: 'sim', startMs: 2000, endMs: 3000, at: 8 }]);
  });

  it('leaves out empty segments and segments not found, without moving past them', () => {
    const { placed, next } = placeSegments('um dois', said('', 'três', 'um', 'dois'), NO_PLACEMENT);
    expect(placed.map((s) => [s.text, s.at])).toEqual([['um', 0], ['dois', 3]]);
    expect(next).toEqual({ count: 4, cursor: 7 });
  });

  it('reads the transcript only from where the last call stopped, and not at all without a new segment', () => {
    const text = 'sim não sim';
    const reads: number[] = [];
    const source = { length: text.length, slice: (start: number, end?: number) => (reads.push(start), text.slice(start, end)) };
    const first = placeSegments(source, said('sim', 'não'), NO_PLACEMENT);
    placeSegments(source, said('sim', 'não'), first.next);
    expect(reads).toEqual([0]);
    expect(placeSegments(source, said('sim', 'não', 'sim'), first.next).placed.map((s) => s.at)).toEqual([8]);
    expect(reads).toEqual([0, 7]);
  });

  it('looks at a shorter list than before from its start', () => {
    const { placed } = placeSegments('um dois', said('dois'), { count: 3, cursor: 0 });
    expect(placed.map((s) => s.at)).toEqual([3]);
  });

  it('keeps times whole and not negative, and a segment’s text to 10,000 characters', () => {
    const long = 'a'.repeat(12_000);
    const [placed] = placeSegments(long, [{ text: long, startMs: -5.4, endMs: 1200.6 }], NO_PLACEMENT).placed;
    expect(placed).toMatchObject({ startMs: 0, endMs: 1201, at: 0 });
    expect(placed!.text).toHaveLength(10_000);
  });
});

describe('what is left to do', () => {
  it('counts a missing session id, text, a duration or language change, and a stop as work', () => {
    const done = entryOf('', 10).e;
    expect(hasWork(done)).toBe(false);
    expect(hasWork({ ...done, sessionId: null })).toBe(true);
    expect(hasWork({ ...done, length: 11 })).toBe(true);
    expect(hasWork({ ...done, stopped: true })).toBe(true);
    expect(metaChanged({ ...done, durationSec: 3.4 })).toBe(false);
    expect(metaChanged({ ...done, durationSec: 4 })).toBe(true);
    expect(metaChanged({ ...done, language: 'en-US' })).toBe(true);
  });
});

describe('continuedBy', () => {
  const queued = (transcript: string, length: number, more: Partial<QueueEntry> = {}) => ({ ...entryOf('x'.repeat(length - 5), 5, [], more).e, transcript, id: `${transcript}-${length}` });

  it('finds the entry of the same device transcript whose length the transcript reaches', () => {
    const a = queued('t1', 11);
    expect(continuedBy('t1', 20, [a])).toBe(a);
    expect(continuedBy('t2', 20, [a])).toBeUndefined();
    expect(continuedBy('t1', 10, [a])).toBeUndefined();
  });

  it('prefers the longest, then a running one over a stopped one; can skip one entry and stopped or empty ones', () => {
    const short = queued('t1', 5);
    const long = queued('t1', 11);
    const stopped = queued('t1', 11, { stopped: true });
    expect(continuedBy('t1', 12, [short, long])).toBe(long);
    expect(continuedBy('t1', 12, [stopped, long])).toBe(long);
    expect(continuedBy('t1', 12, [short, long], { except: long })).toBe(short);
    expect(continuedBy('t1', 12, [stopped], { running: true })).toBeUndefined();
    const empty = { ...entryOf('').e, transcript: 't1' };
    expect(continuedBy('t1', 5, [empty])).toBe(empty);
    expect(continuedBy('t1', 5, [empty], { running: true })).toBeUndefined();
  });
});
