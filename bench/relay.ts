import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { LIVE_SAVE_INTERVAL_MS } from '@app/shared/constants';
import { routeUrl } from '@app/shared/routes';
import { sessionTokenOf } from '@app/shared/session-cookie';
import { setPlan } from '../functions/src/db/users.ts';
import { startLocalApp } from '../functions/src/local/app.ts';
import type { ReceivedCaption } from '../functions/src/local/caption-receiver.ts';
import { freePort } from '../functions/src/local/dynamo.ts';

/**
 * Captions into YouTube Live and Zoom, on the local server (its stream relay over DynamoDB Local's
 * stream runs the relay handler Lambda runs; the local caption receiver stands in for both
 * services). A Pro speaker shares a session with a YouTube and a Zoom destination; the speaker's
 * client sends what was said every LIVE_SAVE_INTERVAL_MS through the autosave route, as it does
 * while sharing.
 * - Delay: RELAY_BENCH_FINALS finals (default 30) at random moments 0.8 to 2 s apart; the clock starts at the
 *   final at the speaker (so it includes the wait for the client's next save) and stops when the
 *   receiver gets the caption holding it. Budget: p95 <= 1.5 s, per destination.
 * - Burst: 40 finals in 2 s; printed: the requests each destination got in its busiest second
 *   (budget: 1), the shortest time between two of its requests, how many captions carried the 40
 *   finals, and that every final arrived once, in order.
 */
const DELAY_P95_BUDGET_MS = 1_500;
const FINALS = Number(process.env.RELAY_BENCH_FINALS ?? 30);
const BURST = 40;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function benchRelay(): Promise<{ lines: string[]; ok: boolean }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-relay-'));
  process.env.LOG_LEVEL = 'silent';
  process.env.SCRYPT_LOG_N = '12';
  const app = await startLocalApp({ dataDir, port: await freePort(), webDist: dataDir, inMemory: true });
  try {
    const request = async <T>(method: string, path: string, body?: unknown, token?: string) => {
      const res = await fetch(app.url + path, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as T, token: sessionTokenOf(res.headers.getSetCookie()) };
    };
    const reg = await request<{ user: { id: string } }>('POST', routeUrl('register'), {
      name: 'Speaker', email: `relay-${Date.now()}@example.com`, password: 'relay-bench-password', recaptchaToken: 'test-pass',
    });
    const token = reg.token;
    if (!token) throw new Error('register set no session cookie');
    await setPlan(reg.body.user.id, 'pro', null);
    const { sessionId } = (await request<{ sessionId: string }>('GET', routeUrl('autosaveSessionId'), undefined, token)).body;
    const { code } = (await request<{ code: string }>('POST', routeUrl('startLiveShare'), { sessionId }, token)).body;
    const keys = { youtube: `bench-yt-${Date.now()}`, zoom: `bench-zoom-${Date.now()}` };
    const receiver = `${app.url}/_local/captions/`;
    for (const [service, url] of [
      ['youtube', `${receiver}youtube/closedcaption?cid=${keys.youtube}`],
      ['zoom', `${receiver}zoom/closedcaption?id=${keys.zoom}`],
    ] as const) {
      const added = await request('POST', routeUrl('addCaptionDestination', { code }), { service, url }, token);
      if (added.status !== 200) throw new Error(`adding ${service} failed: ${JSON.stringify(added.body)}`);
    }

    // The speaker's client: what was said since the last save goes every LIVE_SAVE_INTERVAL_MS.
    let said = '';
    let saved = 0;
    let stop = false;
    const saver = (async () => {
      while (!stop) {
        await sleep(LIVE_SAVE_INTERVAL_MS);
        if (said.length === saved) continue;
        const text = said.slice(saved);
        const res = await request<{ length: number }>('POST', routeUrl('autosaveSave'), { sessionId, offset: saved, text, segments: [], duration: 1, language: 'en-US' }, token);
        if (res.status === 200) saved = res.body.length;
      }
    })();
    const finalAt = new Map<string, number>();
    const say = (word: string) => {
      said += `${said ? ' ' : ''}${word} and more words`;
      finalAt.set(word, Date.now());
    };
    const received = (key: string) => app.captions.filter((c: ReceivedCaption) => c.key === key && c.status === 200 && !c.duplicate);
    const textOf = (c: ReceivedCaption) => (c.service === 'youtube' ? c.body.split('\n')[1]! : c.body);
    const arrival = (key: string, word: string) => received(key).find((c) => textOf(c).split(' ').includes(word))?.at;
    const waitAll = async (words: string[]) => {
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline && !words.every((w) => arrival(keys.youtube, w) && arrival(keys.zoom, w))) await sleep(100);
    };

    // Delay.
    const delayWords = Array.from({ length: FINALS }, (_, i) => `d${i}x`);
    for (const w of delayWords) {
      await sleep(800 + Math.random() * 1_200);
      say(w);
    }
    await waitAll(delayWords);
    const lines: string[] = [];
    let ok = true;
    for (const [service, key] of Object.entries(keys)) {
      const delays = delayWords.map((w) => (arrival(key, w) ?? NaN) - finalAt.get(w)!).sort((a, b) => a - b);
      const missing = delays.filter((d) => Number.isNaN(d)).length;
      const p95 = percentile(delays, 95);
      ok &&= missing === 0 && p95 <= DELAY_P95_BUDGET_MS;
      lines.push(
        `${service.padEnd(7)} final at the speaker -> received: p50 ${percentile(delays, 50)} ms, p95 ${p95} ms, max ${delays.at(-1)} ms ` +
          `(budget p95 <= ${DELAY_P95_BUDGET_MS} ms)${missing ? `, ${missing} NEVER ARRIVED` : ''}`,
      );
    }

    // Burst.
    const before = { youtube: received(keys.youtube).length, zoom: received(keys.zoom).length };
    const burstWords = Array.from({ length: BURST }, (_, i) => `b${i}x`);
    for (const w of burstWords) {
      say(w);
      await sleep(2_000 / BURST);
    }
    await waitAll(burstWords);
    for (const [service, key] of Object.entries(keys) as ['youtube' | 'zoom', string][]) {
      const all = app.captions.filter((c) => c.key === key);
      const times = all.map((c) => c.at).sort((a, b) => a - b);
      let busiest = 0;
      for (let i = 0, j = 0; i < times.length; i++) {
        while (times[i]! - times[j]! >= 1_000) j++;
        busiest = Math.max(busiest, i - j + 1);
      }
      const gaps = times.slice(1).map((t, i) => t - times[i]!);
      const burst = received(key).slice(before[service]);
      const order = burst.flatMap((c) => textOf(c).split(' ').filter((w) => /^b\d+x$/.test(w)));
      const once = order.join(' ') === burstWords.join(' ');
      const seqs = received(key).map((c) => c.seq);
      const numbered = seqs.every((s, i) => s === i + 1);
      ok &&= busiest <= 1 && once && numbered;
      lines.push(
        `${service.padEnd(7)} burst of ${BURST} finals in 2 s: ${burst.length} captions; busiest second ${busiest} request(s) (budget 1), ` +
          `shortest gap ${Math.min(...gaps)} ms; every final once and in order: ${once ? 'yes' : 'NO'}; seq 1..${seqs.length} without a gap: ${numbered ? 'yes' : 'NO'}`,
      );
    }
    stop = true;
    await saver;
    lines.push(`(local server, DynamoDB Local and this benchmark on one machine; load average ${loadavg()[0]!.toFixed(1)})`);
    return { lines, ok };
  } finally {
    await app.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
