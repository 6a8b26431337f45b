import { SEGMENTS_MAX } from '@app/shared/constants';
import { DELTA_MAX_CHARS, TRANSCRIPT_MAX_CHARS } from '@app/shared/schemas/transcriptions';
import { setPlan } from '../functions/src/db/users.ts';
import { call, registerUser } from '../functions/test/call.ts';
import { withLocalStore } from './store.ts';

/**
 * Handler CPU (process.cpuUsage around one call, median of 5 after a warm-up) of saves carrying
 * segments, autosave delta and saved transcription: a 6 MB body of empty segments (beyond
 * SEGMENTS_MAX, refused) next to the same bytes made unreadable (the cost of reading 6 MB of
 * JSON at all), a refusal at the cap (the last segment not in the text), and valid saves of
 * one-word segments up to the cap, and a segment with a long repetitive tail in the longest
 * delta and transcript (searched for, and at the place it gives). Budget: a refusal costs at most
 * 100 ms more than reading its body.
 */
type Route = 'autosaveSave' | 'saveTranscription';

export async function benchSegments(): Promise<{ lines: string[]; ok: boolean }> {
  return withLocalStore(async () => {
    const user = await registerUser();
    await setPlan(user.id, 'pro', null);
    const sessionId = (await call<{ sessionId: string }>('autosaveSessionId', { token: user.token })).body.sessionId;
    let stored = 0;
    const bodyOf = (route: Route, text: string, segments: string) =>
      route === 'autosaveSave'
        ? `{"sessionId":"${sessionId}","offset":${stored},"text":${JSON.stringify(text)},"duration":1,"language":"pt-BR","segments":${segments}}`
        : `{"title":"Bench","duration":1,"fullTranscript":${JSON.stringify(text)},"segments":${segments}}`;
    const median = async (route: Route, body: () => string, expected: number) => {
      const times: number[] = [];
      for (let i = 0; i < 6; i++) {
        const raw = body();
        const before = process.cpuUsage();
        const res = await call<{ length?: number }>(route, { token: user.token, rawBody: raw });
        const used = process.cpuUsage(before);
        if (res.status !== expected) throw new Error(`${route} answered ${res.status}, expected ${expected}: ${JSON.stringify(res.body).slice(0, 200)}`);
        if (route === 'autosaveSave' && res.status === 200) stored = res.body.length!;
        if (i > 0) times.push((used.user + used.system) / 1000); // the first call warms up
      }
      return times.sort((a, b) => a - b)[2]!;
    };
    const segmentsJson = (words: number, last = '') =>
      `[${Array.from({ length: words }, (_, i) => `{"text":"${i === words - 1 && last ? last : 'w'}","startMs":${i * 300},"endMs":${i * 300 + 250}}`).join(',')}]`;
    const tiny = '{"text":"","startMs":0,"endMs":0}';
    const floodCount = Math.floor((6 * 1024 * 1024 - 200) / (tiny.length + 1));
    const flood = `[${Array<string>(floodCount).fill(tiny).join(',')}]`;

    const lines = ['case                                           autosave delta   saved transcription   (CPU ms, median of 5)'];
    let ok = true;
    const row = (label: string, a: number, b: number) => lines.push(`${label.padEnd(46)} ${a.toFixed(1).padStart(14)} ${b.toFixed(1).padStart(21)}`);
    const both = async (body: (route: Route) => string, expected: number) => [await median('autosaveSave', () => body('autosaveSave'), expected), await median('saveTranscription', () => body('saveTranscription'), expected)] as const;

    const reading = await both((r) => `${bodyOf(r, '', flood).slice(0, -1)}x`, 400);
    row('6 MB of JSON, unreadable (reading cost)', ...reading);
    const refusing = await both((r) => bodyOf(r, '', flood), 400);
    row(`6 MB, ${floodCount} empty segments (over the cap)`, ...refusing);
    ok &&= refusing[0] <= reading[0] + 100 && refusing[1] <= reading[1] + 100;
    const atCap = await both((r) => bodyOf(r, 'w '.repeat(SEGMENTS_MAX), segmentsJson(SEGMENTS_MAX, 'absent')), 400);
    row(`${SEGMENTS_MAX} segments, the last not in the text`, ...atCap);
    // The worst input for a naive search: `ab` + `aaaa…` against `aaaa…`, in the longest delta and the longest transcript.
    const tail = `ab${'a'.repeat(9_998)}`;
    const longest = (r: Route) => 'a'.repeat(r === 'autosaveSave' ? DELTA_MAX_CHARS : TRANSCRIPT_MAX_CHARS);
    const longReading = await both((r) => `${bodyOf(r, longest(r), '[]').slice(0, -1)}x`, 400);
    row('a×300,000 / a×3,000,000 unreadable (reading)', ...longReading);
    for (const [label, at] of [['searched', ''], ['at its place', ',"at":0']] as const) {
      const tailCost = await both((r) => bodyOf(r, longest(r), `[{"text":"${tail}","startMs":0,"endMs":1${at}}]`), 400);
      row(`ab+a×9,998 in it, ${label}`, ...tailCost);
      ok &&= tailCost[0] <= longReading[0] + 100 && tailCost[1] <= longReading[1] + 100;
    }
    for (const words of [500, 5_000, SEGMENTS_MAX]) row(`${words} one-word segments, saved`, ...(await both((r) => bodyOf(r, 'w '.repeat(words), segmentsJson(words)), 200)));
    return { lines, ok };
  });
}
