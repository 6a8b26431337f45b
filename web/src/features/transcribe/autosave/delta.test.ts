import type { Segment } from '@app/shared/schemas/transcriptions';
import { describe, expect, it } from 'vitest';
import {
  confirmed,
  continuedBy,
  edgeOf,
  hasWork,
  inTail,
  keepaliveDelta,
  KEEPALIVE_MAX_BYTES,
  metaChanged,
  nextDelta,
  NO_PLACEMENT,
  placeSegments,
  resentFrom,
  shiftedTo,
} from './delta';
import type { PlacedSegment, QueueEntry } from './queue-storage';

/** A queue entry holding `text` from `base`, with the segments placed in it. */
function entryOf(text: string, base = 0, segments: PlacedSegment[] = [], more: Partial<QueueEntry> = {}): QueueEntry {
  return {
    id: 'local', userId: 'u1', sessionId: 'S1', language: 'pt-BR', durationSec: 3, base, text, segments, edge: edgeOf(text),
    sentDurationSec: 3, sentLanguage: 'pt-BR', stopped: false, owner: null, touchedAt: 0, changedAt: 0, ...more,
  };
}
const seg = (text: string, at: number, startMs = 0): PlacedSegment => ({ text, startMs, endMs: startMs + 1000, at });
const said = (...texts: string[]): Segment[] => texts.map((text, i) => ({ text, startMs: i * 1000, endMs: i * 1000 + 1000 }));

describe('nextDelta', () => {
  it('sends the whole tail at base with its segments and their places in the transcript, the duration rounded', () => {
    const e = entryOf(' dois três', 2, [seg('dois', 3), seg('três', 8, 1000)], { durationSec: 2.6 });
    expect(nextDelta(e, 100)).toEqual({
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
    const e = entryOf('aaaa bbbb cccc', 0, [seg('aaaa', 0), seg('bbbb', 5), seg('cccc', 10)]);
    const delta = nextDelta(e, 12);
    expect(delta.text).toBe('aaaa bbbb');
    expect(delta.segments.map((s) => s.text)).toEqual(['aaaa', 'bbbb']);
  });

  it('cuts at the limit when no segment ends within it, never inside a surrogate pair', () => {
    expect(nextDelta(entryOf('abcdef'), 4).text).toBe('abcd');
    expect(nextDelta(entryOf('ab😀cd'), 3).text).toBe('ab');
  });

  it('sends a zero duration for a duration that is not a positive number', () => {
    expect(nextDelta(entryOf('x', 0, [], { durationSec: Number.NaN }), 10).duration).toBe(0);
    expect(nextDelta(entryOf('x', 0, [], { durationSec: -4 }), 10).duration).toBe(0);
  });
});

describe('keepaliveDelta', () => {
  it('is the longest delta (halving from a quarter of the limit) whose JSON fits a keepalive request, from base', () => {
    const e = entryOf('Привет мир '.repeat(5_000), 7);
    const delta = keepaliveDelta(e)!;
    expect(new TextEncoder().encode(JSON.stringify(delta)).length).toBeLessThanOrEqual(KEEPALIVE_MAX_BYTES);
    expect(delta.offset).toBe(7);
    expect(e.text.startsWith(delta.text)).toBe(true);
    expect(delta.text.length).toBe(Math.floor(KEEPALIVE_MAX_BYTES / 4));
  });

  it('halves the delta until its JSON fits (characters JSON escapes take 6 bytes each)', () => {
    const e = entryOf('\u0001'.repeat(20_000));
    const delta = keepaliveDelta(e)!;
    expect(delta.text.length).toBe(Math.floor(KEEPALIVE_MAX_BYTES / 8));
  });

  it('sends a short tail whole', () => {
    expect(keepaliveDelta(entryOf(' fim', 10))).toMatchObject({ offset: 10, text: ' fim' });
  });
});

describe('confirmed', () => {
  it('drops from the tail what the server holds, and the segments before the new base', () => {
    const e = entryOf('um dois três', 0, [seg('um', 0), seg('dois', 3), seg('três', 8)]);
    expect(confirmed(e, 7)).toEqual({ base: 7, text: ' três', segments: [seg('três', 8)] });
  });

  it('changes nothing on a stale answer, and never drops more than the tail', () => {
    const e = entryOf(' três', 7, [seg('três', 8)]);
    expect(confirmed(e, 3)).toEqual({ base: 7, text: ' três', segments: [seg('três', 8)] });
    expect(confirmed(e, 50)).toEqual({ base: 12, text: '', segments: [] });
  });
});

describe('after a 409 gap', () => {
  it('resends from the server’s length out of the whole transcript', () => {
    const segments = [seg('primeira', 0), seg('parte', 9), seg('segunda', 15)];
    expect(resentFrom('primeira parte segunda', segments, 8)).toEqual({ base: 8, text: ' parte segunda', segments: [seg('parte', 9), seg('segunda', 15)] });
  });

  it('with only the tail at hand, keeps it whole and moves it and its segments to the server’s length', () => {
    const e = entryOf(' depois', 20, [seg('depois', 21)]);
    expect(shiftedTo(e, 12)).toEqual({ base: 12, text: ' depois', segments: [seg('depois', 13)] });
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

describe('inTail', () => {
  it('takes a segment inside the unsent tail, after the tail’s last segment', () => {
    const e = entryOf(' dois três', 2, [seg('dois', 3)]);
    expect(inTail(e, seg('três', 8))).toBe(true);
    expect(inTail(e, seg('um', 0))).toBe(false); // before base: the server has it
    expect(inTail(e, seg('ois', 4))).toBe(false); // inside the last segment
    expect(inTail(entryOf(' x', 2), seg('x', 3))).toBe(true);
  });
});

describe('what is left to do', () => {
  it('counts a missing session id, text, a duration or language change, and a stop as work', () => {
    const done = entryOf('', 10);
    expect(hasWork(done)).toBe(false);
    expect(hasWork({ ...done, sessionId: null })).toBe(true);
    expect(hasWork({ ...done, text: 'x' })).toBe(true);
    expect(hasWork({ ...done, stopped: true })).toBe(true);
    expect(metaChanged({ ...done, durationSec: 3.4 })).toBe(false);
    expect(metaChanged({ ...done, durationSec: 4 })).toBe(true);
    expect(metaChanged({ ...done, language: 'en-US' })).toBe(true);
  });
});

describe('continuedBy', () => {
  const queued = (text: string, more: Partial<QueueEntry> = {}) => ({ ...entryOf(text.slice(5), 5, [], more), edge: edgeOf(text), id: text });

  it('finds the entry the transcript extends: its length reached, its last characters there', () => {
    const a = queued('hello world');
    expect(continuedBy('hello world and more', [a])).toBe(a);
    expect(continuedBy('hello there and more', [a])).toBeUndefined();
    expect(continuedBy('hello worl', [a])).toBeUndefined();
  });

  it('prefers the longest, then a running one over a stopped one; can skip one entry and stopped or empty ones', () => {
    const short = queued('hello');
    const long = queued('hello world');
    const stopped = queued('hello world', { stopped: true });
    expect(continuedBy('hello world!', [short, long])).toBe(long);
    expect(continuedBy('hello world!', [stopped, long])).toBe(long);
    expect(continuedBy('hello world!', [short, long], { except: long })).toBe(short);
    expect(continuedBy('hello world!', [stopped], { running: true })).toBeUndefined();
    const empty = entryOf('');
    expect(continuedBy('hello', [empty])).toBe(empty);
    expect(continuedBy('hello', [empty], { running: true })).toBeUndefined();
  });
});
