import fc from 'fast-check';
import { existsSync, readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { SEGMENTS_MAX } from '@app/shared/constants';
import { DELTA_MAX_CHARS, TRANSCRIPT_MAX_CHARS } from '@app/shared/schemas/transcriptions';
import { setPlan } from '../src/db/users.ts';
import { call, registerUser } from './call.ts';

/**
 * Hostile segment arrays cost little CPU: the count is checked before any segment is parsed,
 * their text may not outgrow the text they come with, and placing them is one forward pass.
 * CPU is the main thread's (cpuMs below) around one handler call, after warm-up calls.
 */
const BUDGET_MS = 100;

type Seg = { text: string; startMs: number; endMs: number };
const seg = (text: string, i = 0): Seg => ({ text, startMs: i * 10, endMs: i * 10 + 5 });

/** V8's full collection, exposed to a context made after the flag is set. */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** The main thread's time on a CPU so far, ms: the scheduler's own count on Linux, the process's elsewhere. */
const MAIN_THREAD = `/proc/${process.pid}/task/${process.pid}/schedstat`;
const mainThreadMs = existsSync(MAIN_THREAD)
  ? () => Number(readFileSync(MAIN_THREAD, 'utf8').split(' ')[0]) / 1e6
  : () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    };

/**
 * The CPU time of the thread the handler runs on, around one call, the garbage of earlier calls
 * collected first. The process's time also counted V8's helper threads: in the full run, a
 * collection of what other files left in the shared worker once cost a call 262 ms that were not
 * the handler's, and under the full run's load one call came to 101 ms.
 */
async function cpuMs<T>(fn: () => Promise<T>): Promise<{ result: T; ms: number }> {
  collectGarbage();
  const before = mainThreadMs();
  const result = await fn();
  return { result, ms: mainThreadMs() - before };
}

/** Repetitive texts (the worst case for a naive search) of up to ~18,000 characters. */
const textArb = fc
  .record({ unit: fc.constantFrom('a', 'ab', 'a ', 'la la ', 'ção ', '🙂', 'x y z '), times: fc.integer({ min: 0, max: 3_000 }) })
  .map(({ unit, times }) => unit.repeat(times));

/** Up to `max` slices of `text`, `len` long, every `stride` characters. */
function slices(text: string, len: number, stride: number, max: number): Seg[] {
  const out: Seg[] = [];
  for (let i = 0; i + len <= text.length && out.length < max; i += stride) out.push(seg(text.slice(i, i + len), out.length));
  return out;
}

const segmentsFor = (text: string): fc.Arbitrary<Seg[]> =>
  fc.oneof(
    // many tiny segments, one after another
    fc.integer({ min: 1, max: 3 }).map((len) => slices(text, len, len, 500)),
    // overlapping segments
    fc.record({ len: fc.integer({ min: 2, max: 60 }), stride: fc.integer({ min: 1, max: 59 }) }).map(({ len, stride }) => slices(text, len, Math.min(stride, len - 1), 500)),
    // the same text again and again
    fc.record({ len: fc.integer({ min: 1, max: 200 }), times: fc.integer({ min: 1, max: 2_000 }) }).map(({ len, times }) =>
      Array<Seg>(times).fill(seg(text.slice(0, len) || 'a')),
    ),
    // segments that do not occur in the text, after some that do
    fc.record({ valid: fc.integer({ min: 0, max: 300 }), absent: fc.string({ minLength: 1, maxLength: 40 }), times: fc.integer({ min: 1, max: 1_000 }) }).map(
      ({ valid, absent, times }) => [...slices(text, 1, 2, valid), ...Array<Seg>(times).fill(seg(`${absent}\u0000`))],
    ),
    // near misses: a long stretch of the text with one character that is not there
    fc.record({ len: fc.integer({ min: 1, max: 9_000 }), times: fc.integer({ min: 1, max: 100 }) }).map(({ len, times }) =>
      Array<Seg>(times).fill(seg(`${text.slice(0, len)}\u0000`)),
    ),
    // counts far beyond the cap
    fc.integer({ min: SEGMENTS_MAX + 1, max: SEGMENTS_MAX + 10_000 }).map((n) => Array<Seg>(n).fill(seg(''))),
    // anything
    fc.array(fc.record({ text: fc.string({ maxLength: 20 }), startMs: fc.nat(), endMs: fc.nat() }), { maxLength: 300 }),
  );

describe('hostile segments', () => {
  it(`never take more than ${BUDGET_MS} ms of handler CPU to save or refuse`, async () => {
    const u = await registerUser();
    await setPlan(u.id, 'pro', null);
    const sessionId = (await call<{ sessionId: string }>('autosaveSessionId', { token: u.token })).body.sessionId;
    let stored = 0;
    const save = async (route: 'autosaveSave' | 'saveTranscription', text: string, segments: Seg[]) => {
      const rawBody = JSON.stringify(
        route === 'autosaveSave'
          ? { sessionId, offset: stored, text, segments, duration: 60, language: 'pt-BR' }
          : { title: 'Cost', duration: 60, fullTranscript: text, segments },
      );
      const { result, ms } = await cpuMs(() => call<{ length?: number; error?: string }>(route, { token: u.token, rawBody }));
      if (route === 'autosaveSave' && result.status === 200) stored = result.body.length!;
      return { ...result, ms };
    };
    // Warm-up: every path once or twice (JIT), unmeasured.
    const warmText = 'ção a '.repeat(1_500);
    const warmCases = [
      slices(warmText, 2, 2, 500),
      Array<Seg>(SEGMENTS_MAX + 1).fill(seg('')),
      [seg('ção'), seg('absent')],
      [seg(`${warmText.slice(0, 5_000)}\u0000`)],
      Array<Seg>(2_000).fill(seg(warmText.slice(0, 100))),
    ];
    for (let round = 0; round < 2; round++) {
      for (const segments of warmCases) for (const route of ['autosaveSave', 'saveTranscription'] as const) await save(route, warmText, segments);
    }

    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('autosaveSave' as const, 'saveTranscription' as const),
        textArb.chain((text) => fc.tuple(fc.constant(text), segmentsFor(text))),
        async (route, [text, segments]) => {
          const res = await save(route, text, segments);
          expect([200, 400]).toContain(res.status);
          if (res.status === 400) expect(typeof res.body.error).toBe('string');
          expect(res.ms).toBeLessThanOrEqual(BUDGET_MS);
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);

  it('a 6 MB body of tiny segments is refused at no more cost than reading it', async () => {
    const u = await registerUser();
    await setPlan(u.id, 'pro', null);
    const sessionId = (await call<{ sessionId: string }>('autosaveSessionId', { token: u.token })).body.sessionId;
    const tiny = JSON.stringify(seg(''));
    const count = Math.floor((6 * 1024 * 1024 - 200) / (tiny.length + 1));
    const array = `[${Array<string>(count).fill(tiny).join(',')}]`;
    const bodies = {
      autosaveSave: `{"sessionId":"${sessionId}","offset":0,"text":"","duration":1,"language":"pt-BR","segments":${array}}`,
      saveTranscription: `{"title":"Big","duration":1,"fullTranscript":"","segments":${array}}`,
    };
    for (const [route, body] of Object.entries(bodies) as [keyof typeof bodies, string][]) {
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(6 * 1024 * 1024);
      // The same bytes with one character of garbage at the end: JSON.parse reads all of it, then fails.
      const unreadable = `${body.slice(0, -1)}x`;
      const cost = async (raw: string, error: string) => {
        const { result, ms } = await cpuMs(() => call<{ error?: string }>(route, { token: u.token, rawBody: raw }));
        expect(result).toMatchObject({ status: 400, body: { error } });
        return ms;
      };
      // Calls come at two costs, some 30 ms apart, and a run can switch between them midway (the
      // heap's state, not the request): pairs of calls side by side, each order in turn, and the
      // median of their differences.
      const reading = () => cost(unreadable, 'Request body must be valid JSON');
      const refusing = () => cost(body, `At most ${SEGMENTS_MAX.toLocaleString('en-US')} segments per request`);
      const extra: number[] = [];
      for (let i = 0; i < 9; i++) {
        if (i % 2 === 0) {
          const r = await reading();
          extra.push((await refusing()) - r);
        } else {
          const f = await refusing();
          extra.push(f - (await reading()));
        }
      }
      extra.sort((a, b) => a - b);
      expect(extra[4], `refusing minus reading, ms: ${extra.map((ms) => ms.toFixed(0)).join(' ')}`).toBeLessThanOrEqual(30);
    }
  }, 120_000);

  it('a segment with a long repetitive tail, in the longest delta and the longest transcript, is refused in linear time', async () => {
    const u = await registerUser();
    await setPlan(u.id, 'pro', null);
    const sessionId = (await call<{ sessionId: string }>('autosaveSessionId', { token: u.token })).body.sessionId;
    // `ab` + `aaaa…` against `aaaa…`: the engine's indexOf took ~0.9 s on the delta and ~12 s on the transcript.
    const hostile = [seg(`ab${'a'.repeat(9_998)}`)];
    const bodies = {
      autosaveSave: (segments: Seg[]) => JSON.stringify({ sessionId, offset: 0, text: 'a'.repeat(DELTA_MAX_CHARS), segments, duration: 1, language: 'pt-BR' }),
      saveTranscription: (segments: Seg[]) => JSON.stringify({ title: 'Long', duration: 1, fullTranscript: 'a'.repeat(TRANSCRIPT_MAX_CHARS), segments }),
    };
    for (const [route, body] of Object.entries(bodies) as [keyof typeof bodies, (segments: Seg[]) => string][]) {
      for (const segments of [hostile, [{ ...hostile[0]!, at: 0 }]]) {
        const rawBody = body(segments);
        await call(route, { token: u.token, rawBody }); // warm-up
        const { result, ms } = await cpuMs(() => call<{ error?: string }>(route, { token: u.token, rawBody }));
        expect(result).toMatchObject({ status: 400, body: { error: 'Segment 1 does not match the text: segments must occur in it in order' } });
        expect(ms, `${route}, ${'at' in segments[0]! ? 'placed' : 'searched'}`).toBeLessThanOrEqual(BUDGET_MS * 3);
      }
    }
  }, 120_000);
});

