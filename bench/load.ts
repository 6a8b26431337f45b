import autocannon from 'autocannon';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { routeUrl } from '@app/shared/routes';
import { sessionTokenOf } from '@app/shared/session-cookie';
import { startLocalApp } from '../functions/src/local/app.ts';
import { freePort } from '../functions/src/local/dynamo.ts';

/**
 * Load test: 200 concurrent connections send autosave deltas for 30 s across 50 sessions of
 * 10 users against the local server (real handlers, DynamoDB Local). Four connections share
 * each session and race: each sends the next part of its session's text from the length the
 * server last confirmed. Then every session's stored text is compared with what was sent.
 * Budget: 0 errors, 0 lost or duplicated text. Prints p50 and p99 latency.
 */
const CONNECTIONS = 200;
const SESSIONS = 50;
const USERS = 10;
const DURATION_S = Number(process.env.LOAD_SECONDS ?? 30);
const PART = 60;

interface Session {
  id: string;
  token: string;
  text: string;
  confirmed: number;
}

function sessionText(i: number): string {
  const words = ['ação', 'рука', 'שלום', '你好', 'reunião', 'speech', 'texto', 'Ñandú', 'مرحبا', 'zażółć'];
  let s = '';
  for (let w = 0; s.length < 400_000; w++) s += `${words[(w * 7 + i) % words.length]}${w} `;
  return s;
}

export async function benchLoad(): Promise<{ lines: string[]; ok: boolean }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-load-'));
  process.env.LOG_LEVEL = 'silent';
  process.env.SCRYPT_LOG_N = '12';
  // A few users drive every connection flat out: far past a client's saves a minute, so no per-user limit here.
  process.env.AUTOSAVE_SAVES_PER_MINUTE = String(Number.MAX_SAFE_INTEGER);
  const app = await startLocalApp({ dataDir, port: await freePort(), webDist: resolve(import.meta.dirname, '../web/dist'), inMemory: true });
  try {
    const post = async (path: string, body: unknown, token?: string) => {
      const res = await fetch(app.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown>, token: sessionTokenOf(res.headers.getSetCookie()) };
    };
    const tokens: string[] = [];
    for (let u = 0; u < USERS; u++) {
      const r = await post(routeUrl('register'), { name: `Load ${u}`, email: `load-${u}-${Date.now()}@example.com`, password: 'load-password-1', recaptchaToken: 'test-pass' });
      tokens.push(r.token!);
    }
    const sessions: Session[] = [];
    for (let i = 0; i < SESSIONS; i++) {
      const token = tokens[i % USERS]!;
      const r = await fetch(`${app.url}${routeUrl('autosaveSessionId')}`, { headers: { authorization: `Bearer ${token}` } });
      sessions.push({ id: ((await r.json()) as { sessionId: string }).sessionId, token, text: sessionText(i), confirmed: 0 });
    }

    let next = 0;
    let unexpected = 0;
    const result = await autocannon({
      url: app.url,
      connections: CONNECTIONS,
      duration: DURATION_S,
      // Latency is measured and printed, not capped: a slow answer is not an error here.
      timeout: 60,
      requests: [
        {
          method: 'POST',
          path: routeUrl('autosaveSave'),
          setupRequest: (req, context) => {
            const ctx = context as { session?: Session };
            ctx.session ??= sessions[next++ % SESSIONS]!;
            const s = ctx.session;
            const offset = s.confirmed;
            const text = s.text.slice(offset, offset + PART);
            return {
              ...req,
              headers: { 'content-type': 'application/json', authorization: `Bearer ${s.token}` },
              body: JSON.stringify({ sessionId: s.id, offset, text, segments: [{ text: text.trim(), startMs: offset * 10, endMs: offset * 10 + 500 }], duration: offset / 10, language: 'pt-BR' }),
            };
          },
          onResponse: (status, body, context) => {
            const s = (context as { session: Session }).session;
            if (status !== 200) {
              unexpected++;
              return;
            }
            s.confirmed = Math.max(s.confirmed, (JSON.parse(body) as { length: number }).length);
          },
        },
      ],
    });

    let lost = 0;
    let mismatched = 0;
    let stored = 0;
    for (const s of sessions) {
      const r = await fetch(`${app.url}${routeUrl('getAutomaticTranscription', { id: s.id })}`, { headers: { authorization: `Bearer ${s.token}` } });
      const d = (await r.json()) as { fullTranscript: string };
      stored += d.fullTranscript.length;
      if (d.fullTranscript.length < s.confirmed) lost++;
      if (d.fullTranscript !== s.text.slice(0, d.fullTranscript.length)) mismatched++;
    }
    const errors = result.errors + result.timeouts + result.non2xx + unexpected;
    const ok = errors === 0 && lost === 0 && mismatched === 0 && result.requests.total > 0;
    return {
      ok,
      lines: [
        `load: ${CONNECTIONS} connections, ${SESSIONS} sessions, ${DURATION_S} s: ${result.requests.total.toLocaleString('en')} saves (${result.requests.average.toFixed(0)}/s)`,
        `  latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
        `  errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx}`,
        `  stored ${stored.toLocaleString('en')} characters; sessions with lost text ${lost}, with wrong or duplicated text ${mismatched}`,
      ],
    };
  } finally {
    await app.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { lines, ok } = await benchLoad();
  for (const l of lines) console.log(l);
  console.log(ok ? 'load budgets: OK' : 'load budgets: FAILED');
}
