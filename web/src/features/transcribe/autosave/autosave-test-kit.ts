import { STORAGE_KEYS } from '@app/shared/constants';
import type { RouteName } from '@app/shared/routes';
import { sessionIdQuery } from '@app/shared/schemas/transcriptions';
import type { Segment } from '@app/shared/schemas/transcriptions';
import { afterEach, beforeEach, vi } from 'vitest';
import { routeOf } from '../../../test/routes';
import { createRecoveryStore, readTranscript, type RecoveryStore } from '../lib/recovery';
import { createAutosaveEngine, type AutosaveEngine, type AutosaveSnapshot } from './autosave-engine';
import type { QueueEntry } from './queue-storage';

/** What the engine tests share: a fake of the autosave routes, the card's transcript and its device copy, engines on a fake clock. */

interface Call {
  route: RouteName | undefined;
  query: Record<string, string>;
  method: string;
  body: Record<string, unknown> | undefined;
  keepalive: boolean;
  /** The user whose session the call went in (the device's signed-in user when it went out); null for none. */
  session: string | null;
}

/** A fake of the three autosave routes with the server's session-key and delta rules, installed as `fetch`. */
/** The plan every save answers with, as the server's does. */
export const PLAN = { plan: 'pro', isPro: true, planExpiry: '2030-01-01T00:00:00.000Z', planRenews: true } as const;

export function fakeServer() {
  const sessions = new Map<string, { text: string; segments: Segment[]; completed: boolean; duration: number; language: string }>();
  /** Session key -> the session it opened. */
  const keys = new Map<string, string>();
  const calls: Call[] = [];
  /** `lostAnswers`: that many next requests take effect on the server, but their answers never reach the page (it went away, the network dropped). */
  /** `monthFull`: the user's plan keeps no more automatic transcriptions this month (a new session is refused). */
  const state = { offline: false, failSaves: 0, n: 0, maintenance: false, lostAnswers: 0, monthFull: false };
  const fetchFn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const reply = respond(input, init);
    if (state.lostAnswers > 0) {
      state.lostAnswers--;
      throw new TypeError('Failed to fetch');
    }
    return reply;
  });
  function respond(input: RequestInfo | URL, init: RequestInit): Response {
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
    const method = init.method ?? 'GET';
    const { route, query } = routeOf(method, String(input));
    calls.push({ route, query, method, body, keepalive: init.keepalive === true, session: init.credentials === 'omit' ? null : window.localStorage.getItem(STORAGE_KEYS.sessionUser) });
    if (state.offline) throw new TypeError('Failed to fetch');
    const json = (status: number, data: unknown) => new Response(JSON.stringify(data), { status });
    if (state.maintenance) return json(503, { error: 'Under maintenance', code: 'maintenance' });
    if (route === 'autosaveSessionId') {
      const parsed = sessionIdQuery.safeParse(query);
      if (!parsed.success) return json(400, { error: parsed.error.issues[0]!.message, code: 'invalid_input' });
      const known = parsed.data.key === undefined ? undefined : keys.get(parsed.data.key);
      if (known) return json(200, { sessionId: known });
      if (state.monthFull) return json(403, { error: 'The free plan keeps 5 automatic transcriptions a month', code: 'automatic_limit', requiresPro: true });
      const id = `01JAAAAAAAAAAAAAAAAAAAAA${String(state.n++).padStart(2, '0')}`;
      sessions.set(id, { text: '', segments: [], completed: false, duration: 0, language: 'en-US' });
      if (parsed.data.key !== undefined) keys.set(parsed.data.key, id);
      return json(200, { sessionId: id });
    }
    const s = sessions.get(String(body?.sessionId));
    if (!s) return json(404, { error: 'Unknown session', code: 'not_found' });
    if (route === 'autosaveComplete') {
      s.completed = true;
      return json(200, { ok: true });
    }
    if (state.failSaves > 0) {
      state.failSaves--;
      return json(503, { error: 'down' });
    }
    const offset = body!.offset as number;
    const text = body!.text as string;
    // Segments: no more text than the delta, each found in it after the previous one, or 400.
    const segments = body!.segments as Segment[];
    if (segments.reduce((n, seg) => n + seg.text.length, 0) > text.length) return json(400, { error: 'too much segment text', code: 'invalid_input' });
    const placed: { seg: Segment; at: number }[] = [];
    let cursor = 0;
    for (const seg of segments.filter((x) => x.text)) {
      const at = text.indexOf(seg.text, cursor);
      if (at < 0) return json(400, { error: 'a segment does not match the text', code: 'invalid_segments' });
      placed.push({ seg, at: offset + at });
      cursor = at + seg.text.length;
    }
    const end = s.text.length;
    if (offset > end) return json(409, { error: 'gap', code: 'autosave_gap', length: end });
    // A late duplicate (ending before the stored text does) changes nothing; any other delta, with
    // new text or not (a retry, a duration or language change), sets duration and language.
    if (offset + text.length < end) return json(200, { length: end, plan: PLAN });
    s.text += text.slice(end - offset);
    s.segments.push(...placed.filter((p) => p.at >= end).map((p) => p.seg));
    s.duration = body!.duration as number;
    s.language = body!.language as string;
    return json(200, { length: s.text.length, plan: PLAN });
  }
  vi.stubGlobal('fetch', fetchFn);
  const saves = () => calls.filter((c) => c.route === 'autosaveSave');
  /** The session-id requests, each with the key it sent. */
  const sessionIdCalls = () => calls.filter((c) => c.route === 'autosaveSessionId');
  return { sessions, calls, state, saves, sessionIdCalls, soleSession: () => [...sessions.values()][0]! };
}
export type FakeServer = ReturnType<typeof fakeServer>;

/** The card's device copy (one store, as the card has), and the transcript it is writing. */
let device: RecoveryStore | undefined;
let writing: string | undefined;
let transcripts = 0;

/**
 * The card's view: a transcript built from final segments on a session clock, and its device
 * copy (lib/recovery, written as the card writes it), which the queue reads its unsent text from.
 * A new transcript begins a new device copy (as Start does); saying more into an earlier one
 * stands for the card having restored it after a reload.
 */
export function transcript(userId = 'u1') {
  let text = '';
  const segments: Segment[] = [];
  let clock = 0;
  const id = `transcript-${++transcripts}`;
  const meta = { id, userId, language: 'pt-BR' as const, startedAt: '2025-03-10T12:00:00.000Z' };
  device ??= createRecoveryStore();
  device.begin(meta);
  writing = id;
  return {
    id,
    say(words: string) {
      const piece = text ? ` ${words}` : words;
      const segment = { text: words, startMs: clock, endMs: clock + 1000 };
      segments.push(segment);
      device ??= createRecoveryStore();
      if (writing !== id) {
        device.adopt({ meta: { ...meta, durationMs: clock }, segments: segments.slice(0, -1) });
        writing = id;
      }
      device.append(segment);
      clock += 1000;
      text += piece;
      return { transcript: id, text, segments: [...segments], durationSec: clock / 1000, language: 'pt-BR' as const } satisfies AutosaveSnapshot;
    },
    get text() {
      return text;
    },
  };
}

/** The unsent text of a queued entry, as the device holds it (from the entry's confirmed length to its length). */
export async function unsentText(e: QueueEntry): Promise<string> {
  const found = e.transcript === null ? null : await readTranscript(e.transcript);
  return (found?.segments.map((s) => s.text).join(' ') ?? '').slice(e.base, e.length);
}
export type Transcript = ReturnType<typeof transcript>;

/** The device signs in as `userId` (the server set the session cookie; the page notes whose it is). */
export const signInAs = (userId: string) => window.localStorage.setItem(STORAGE_KEYS.sessionUser, userId);
/** The session ends (logout elsewhere, or a refused session): the device forgets it. */
export const signOut = () => window.localStorage.removeItem(STORAGE_KEYS.sessionUser);

let engines: AutosaveEngine[] = [];
/** An engine of this page for `userId`, disposed after the test. */
export function engine(userId = 'u1') {
  const e = createAutosaveEngine({ userId });
  engines.push(e);
  return e;
}

export const advance = async (ms: number) => {
  await vi.advanceTimersByTimeAsync(ms);
};
/** Runs every request in flight and the timers due now, until nothing is left to run. */
export const settle = async () => {
  for (const e of engines) await e.idle();
  await vi.advanceTimersByTimeAsync(0);
  for (const e of engines) await e.idle();
};

/** A fake server and a recording session of `userId` that has its session id. */
export async function recording(userId = 'u1') {
  const server = fakeServer();
  const a = engine(userId);
  const t = transcript(userId);
  a.start('pt-BR', t.id);
  await settle();
  return { server, a, t };
}

/** Says the words and saves at once (Pause). */
export async function sayAndSave(a: AutosaveEngine, t: Transcript, words: string) {
  a.update(t.say(words));
  a.saveNow();
  await settle();
}

/** The page goes away (reload, tab closed): the card writes what its device copy lacks, the engine releases its sessions. */
export function leavePage(a: AutosaveEngine) {
  device?.flushSync('');
  window.dispatchEvent(new Event('pagehide'));
  a.dispose();
  // The page's card is gone with it.
  device?.detach();
  device = undefined;
  writing = undefined;
}

/** The next page load of the same user: its engine picks up what earlier pages left queued. */
export async function nextPageLoad(userId = 'u1') {
  const b = engine(userId);
  b.resumePending();
  await settle();
  return b;
}

/** A tab that died without a pagehide: its engine is gone, and no test run waits on it. */
export function crash(a: AutosaveEngine) {
  a.dispose();
  engines = engines.filter((e) => e !== a);
}

/** The browser says it is offline until `back()`, which says it is online again and fires `online`. */
export function browserOffline() {
  const flag = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  return {
    back() {
      flag.mockReturnValue(true);
      window.dispatchEvent(new Event('online'));
    },
  };
}

/** Each test: a fake clock, the device signed in as u1, warnings silenced (and checked where they matter); engines disposed after. */
export function setUpAutosaveTests() {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(new Date('2025-03-10T12:00:00Z'));
    signInAs('u1');
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    for (const e of engines) e.dispose();
    engines = [];
    device?.detach();
    device = undefined;
    writing = undefined;
  });
}
