import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUTOSAVE_SAVES_PER_MINUTE, FREE_AUTOMATIC_PER_MONTH, FREE_AUTOSAVE_DAILY_CHARS, SEGMENTS_MAX } from '@app/shared/constants';
import { db } from '../src/db/client.ts';
import { keys } from '../src/db/keys.ts';
import { clearRateLimit, meterAutosave } from '../src/db/rate-limits.ts';
import { setPlan } from '../src/db/users.ts';
import { call, registerUser, sessionCookieOf } from './call.ts';
import { storedItems } from './stored.ts';

type Detail = {
  fullTranscript: string;
  isCompleted: boolean;
  duration: number;
  language: string;
  length: number;
  preview: string;
  segments: { text: string; startMs: number; endMs: number }[];
};

async function newSession(token: string) {
  const res = await call<{ sessionId: string }>('autosaveSessionId', { token });
  expect(res.status).toBe(200);
  return res.body.sessionId;
}

const delta = (token: string, sessionId: string, offset: number, text: string, extra: Record<string, unknown> = {}) =>
  call<{ length: number; error?: string }>('autosaveSave', {
    token,
    body: { sessionId, offset, text, segments: [], duration: 10, language: 'en-US', ...extra },
  });

const detail = async (token: string, id: string) => (await call<Detail>('getAutomaticTranscription', { token, params: { id } })).body;

describe('autosave', () => {
  it('is for logged-in users only', async () => {
    expect((await call('autosaveSessionId')).status).toBe(401);
  });

  /** Holds the clock at the start of the next minute (a second in), so a test's saves share one minute and one day. */
  const holdClock = () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime((Math.floor(Date.now() / 60_000) + 1) * 60_000 + 1_000);
  };
  afterEach(() => {
    vi.useRealTimers();
  });

  it("takes a free user's text up to the day's allowance, then refuses it with 429, writing nothing; Pro has none", async () => {
    holdClock();
    const free = await registerUser();
    const id = await newSession(free.token);
    // The day's allowance spent but for 5 characters.
    expect(await meterAutosave(free.id, FREE_AUTOSAVE_DAILY_CHARS - 5, AUTOSAVE_SAVES_PER_MINUTE, FREE_AUTOSAVE_DAILY_CHARS)).toEqual({ allowed: true });
    const over = await delta(free.token, id, 0, 'Hello!');
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: 'quota_exceeded', error: expect.stringContaining('free plan') as unknown });
    expect((await detail(free.token, id)).fullTranscript).toBe('');
    // Each save tells the page the plan as it is now.
    expect((await delta(free.token, id, 0, 'Hello')).body).toMatchObject({ length: 5, plan: { plan: 'free', isPro: false, planExpiry: null } });
    expect((await delta(free.token, id, 5, ' ')).status).toBe(429);

    const pro = await registerUser();
    await setPlan(pro.id, 'pro', new Date(Date.now() + 86_400_000).toISOString());
    await meterAutosave(pro.id, FREE_AUTOSAVE_DAILY_CHARS, AUTOSAVE_SAVES_PER_MINUTE);
    const proId = await newSession(pro.token);
    const saved = await delta(pro.token, proId, 0, 'No allowance for Pro');
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ length: 20, plan: { plan: 'pro', isPro: true } });
  });

  it(`refuses a user's save past ${AUTOSAVE_SAVES_PER_MINUTE} a minute with 429, writing nothing`, async () => {
    holdClock();
    const u = await registerUser();
    const id = await newSession(u.token);
    // Each save counts, whatever its size; the minute's last one still goes through.
    for (let i = 0; i < AUTOSAVE_SAVES_PER_MINUTE - 1; i++) expect(await meterAutosave(u.id, 0, AUTOSAVE_SAVES_PER_MINUTE)).toEqual({ allowed: true });
    expect((await delta(u.token, id, 0, 'last')).status).toBe(200);
    const res = await delta(u.token, id, 4, ' one too many');
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: 'rate_limited' });
    expect((await detail(u.token, id)).fullTranscript).toBe('last');
  });

  it('counts a save that read the clock just before a minute another save has already begun in that minute, instead of refusing it', async () => {
    holdClock();
    const u = await registerUser();
    const start = Date.now();
    // The next minute's first save is metered first; then one whose clock read came a moment before it.
    vi.setSystemTime(start + 60_000);
    expect(await meterAutosave(u.id, 0, AUTOSAVE_SAVES_PER_MINUTE)).toEqual({ allowed: true });
    vi.setSystemTime(start + 58_000);
    expect(await meterAutosave(u.id, 0, AUTOSAVE_SAVES_PER_MINUTE)).toEqual({ allowed: true });
    // Both count in the newer minute: its limit is reached one save sooner.
    vi.setSystemTime(start + 60_000);
    for (let i = 2; i < AUTOSAVE_SAVES_PER_MINUTE; i++) expect(await meterAutosave(u.id, 0, AUTOSAVE_SAVES_PER_MINUTE)).toEqual({ allowed: true });
    expect(await meterAutosave(u.id, 0, AUTOSAVE_SAVES_PER_MINUTE)).toMatchObject({ allowed: false, reason: 'rate' });
  });

  it('appends deltas, ignores a retried delta, refuses a gap with the server length', async () => {
    const u = await registerUser();
    const id = await newSession(u.token);
    expect((await delta(u.token, id, 0, 'Hello ')).body.length).toBe(6);
    expect((await delta(u.token, id, 0, 'Hello ')).body.length).toBe(6);
    const gap = await delta(u.token, id, 20, 'later');
    expect(gap.status).toBe(409);
    expect(gap.body).toMatchObject({ length: 6 });
    expect((await delta(u.token, id, 3, 'lo world', { duration: 20 })).body.length).toBe(11);
    const d = await detail(u.token, id);
    expect(d.fullTranscript).toBe('Hello world');
    expect(d.duration).toBe(20);
  });

  it('20 deltas sent concurrently in shuffled order end with the exact text', async () => {
    const u = await registerUser();
    const id = await newSession(u.token);
    const words = Array.from({ length: 20 }, (_, i) => `palavra-${i}-ção `);
    const offsets = words.map((_, i) => words.slice(0, i).join('').length);
    const expected = words.join('');
    let pending = words.map((w, i) => ({ w, offset: offsets[i]! })).sort(() => Math.random() - 0.5);
    for (let round = 0; pending.length && round < 25; round++) {
      // Far more saves a minute than a client sends: the per-minute limit has a test of its own.
      await clearRateLimit('autosave', `${u.id}#${new Date().toISOString().slice(0, 10)}`);
      const results = await Promise.all(pending.map((p) => delta(u.token, id, p.offset, p.w)));
      for (const r of results) expect([200, 409]).toContain(r.status);
      pending = pending.filter((_, i) => results[i]!.status === 409);
    }
    expect(pending).toHaveLength(0);
    expect((await detail(u.token, id)).fullTranscript).toBe(expected);
  });

  it('accepts the full body (the whole transcript), appending or replacing', async () => {
    const u = await registerUser();
    const id = await newSession(u.token);
    const full = (fullTranscript: string) =>
      call<{ length: number }>('autosaveSave', { token: u.token, body: { sessionId: id, fullTranscript, duration: 5, language: 'pt-BR' } });
    expect((await full('um dois')).body.length).toBe(7);
    expect((await full('um dois três')).body.length).toBe(12);
    expect((await detail(u.token, id)).fullTranscript).toBe('um dois três');
    expect((await full('outro texto')).body.length).toBe(11);
    const d = await detail(u.token, id);
    expect(d.fullTranscript).toBe('outro texto');
    expect(d.language).toBe('pt-BR');
  });

  it('keeps segment times', async () => {
    const u = await registerUser();
    const id = await newSession(u.token);
    await delta(u.token, id, 0, 'one two', { segments: [{ text: 'one', startMs: 0, endMs: 900 }, { text: 'two', startMs: 1000, endMs: 1800 }] });
    await delta(u.token, id, 7, ' three', { segments: [{ text: 'three', startMs: 5000, endMs: 5600 }] });
    expect((await detail(u.token, id)).segments).toEqual([
      { text: 'one', startMs: 0, endMs: 900 },
      { text: 'two', startMs: 1000, endMs: 1800 },
      { text: 'three', startMs: 5000, endMs: 5600 },
    ]);
  });

  it('completes, lists by completion with previews, searches without accents, and counts the month', async () => {
    const u = await registerUser();
    const a = await newSession(u.token);
    const b = await newSession(u.token);
    await delta(u.token, a, 0, 'Uma Transcrição terminada ' + 'x'.repeat(300));
    await delta(u.token, b, 0, 'ainda em andamento');
    expect((await call('autosaveComplete', { token: u.token, body: { sessionId: a } })).status).toBe(200);
    type List = { transcriptions: { _id: string; isCompleted: boolean; preview: string }[]; keptThisMonth: number };
    const list = async (query: Record<string, string>) => (await call<List>('listAutomaticTranscriptions', { token: u.token, query })).body;
    const all = await list({});
    expect(all.transcriptions.map((t) => t._id)).toEqual([b, a]);
    expect(all.transcriptions[1]!.preview).toHaveLength(200);
    expect(all.keptThisMonth).toBe(2);
    expect((await list({ completed: 'true' })).transcriptions.map((t) => t._id)).toEqual([a]);
    expect((await list({ completed: 'false' })).transcriptions.map((t) => t._id)).toEqual([b]);
    expect((await list({ search: 'transcricao' })).transcriptions.map((t) => t._id)).toEqual([a]);
    expect((await list({ search: 'ANDAMENTO', completed: 'true' })).transcriptions).toEqual([]);
    expect((await call('listAutomaticTranscriptions', { token: u.token, query: { completed: 'maybe' } })).status).toBe(400);
  });

  it("user A cannot save to, complete, read or delete user B's session", async () => {
    const a = await registerUser();
    const b = await registerUser();
    const id = await newSession(b.token);
    await delta(b.token, id, 0, 'private');
    expect((await delta(a.token, id, 7, ' injected')).status).toBe(404);
    expect((await call('autosaveComplete', { token: a.token, body: { sessionId: id } })).status).toBe(404);
    expect((await call('getAutomaticTranscription', { token: a.token, params: { id } })).status).toBe(404);
    expect((await call('deleteAutomaticTranscription', { token: a.token, params: { id } })).status).toBe(404);
    const d = await detail(b.token, id);
    expect(d.fullTranscript).toBe('private');
    expect(d.isCompleted).toBe(false);
    expect((await call('deleteAutomaticTranscription', { token: b.token, params: { id } })).status).toBe(200);
    expect((await call('getAutomaticTranscription', { token: b.token, params: { id } })).status).toBe(404);
  });

  it('splits a large delta into chunks and reads it back', async () => {
    const u = await registerUser();
    const id = await newSession(u.token);
    const text = '漢字テキスト🙂'.repeat(30_000);
    expect((await delta(u.token, id, 0, text)).status).toBe(200);
    expect((await detail(u.token, id)).fullTranscript).toBe(text);
  });

  it('a delta with no new text still updates duration and language; a late duplicate changes nothing', async () => {
    const u = await registerUser();
    const id = await newSession(u.token);
    expect((await delta(u.token, id, 0, '', { duration: 3, language: 'es-ES' })).body.length).toBe(0);
    expect(await detail(u.token, id)).toMatchObject({ duration: 3, language: 'es-ES', length: 0 });
    await delta(u.token, id, 0, 'Hola ', { duration: 5, language: 'es-ES' });
    await delta(u.token, id, 5, 'mundo', { duration: 9, language: 'es-ES' });
    expect((await delta(u.token, id, 10, '', { duration: 40, language: 'pt-BR' })).body.length).toBe(10);
    expect(await detail(u.token, id)).toMatchObject({ fullTranscript: 'Hola mundo', duration: 40, language: 'pt-BR', length: 10 });
    // The first delta again, arriving late: it ends before the stored text does.
    expect((await delta(u.token, id, 0, 'Hola ', { duration: 5, language: 'es-ES' })).body.length).toBe(10);
    expect(await detail(u.token, id)).toMatchObject({ duration: 40, language: 'pt-BR', length: 10 });
  });

  it('a retry repairs the metadata when its update failed after the text was written', async () => {
    const u = await registerUser();
    const id = await newSession(u.token);
    await delta(u.token, id, 0, 'Hello ', { duration: 10 });
    const ddb = mockClient(db());
    ddb.send.callThrough();
    ddb.on(UpdateCommand, { Key: keys.transcript(u.id, 'AUTO', id) }).rejectsOnce(Object.assign(new Error('internal'), { name: 'InternalServerError' }));
    try {
      const failed = await delta(u.token, id, 6, 'world', { duration: 20, language: 'pt-BR' });
      expect(failed.status).toBe(500);
    } finally {
      ddb.restore();
    }
    // The text was written, the metadata was not.
    expect(await detail(u.token, id)).toMatchObject({ fullTranscript: 'Hello world', duration: 10, language: 'en-US', length: 6, preview: 'Hello ' });
    const retry = await delta(u.token, id, 6, 'world', { duration: 20, language: 'pt-BR' });
    expect(retry.body.length).toBe(11);
    expect(await detail(u.token, id)).toMatchObject({ fullTranscript: 'Hello world', duration: 20, language: 'pt-BR', length: 11, preview: 'Hello world' });
  });
});

describe('autosave segment limits', () => {
  const seg = (text: string, startMs = 0) => ({ text, startMs, endMs: startMs + 500 });
  it.each([
    ['hold more text than the delta', [seg('one two'), seg('three')], 'The segments hold more text than the transcript they belong to'],
    ['outnumber the cap', Array<ReturnType<typeof seg>>(SEGMENTS_MAX + 1).fill(seg('')), `At most ${SEGMENTS_MAX.toLocaleString('en-US')} segments per request`],
    ['include one not in the text', [seg('one'), seg('six')], 'Segment 2 does not match the text: segments must occur in it in order'],
    ['overlap', [seg('one'), seg('ne')], 'Segment 2 does not match the text: segments must occur in it in order'],
    ['are out of order', [seg('two'), seg('one')], 'Segment 2 does not match the text: segments must occur in it in order'],
  ])('are refused with 400 when they %s, and nothing stored changes', async (_, segments, message) => {
    const u = await registerUser();
    const id = await newSession(u.token);
    await delta(u.token, id, 0, 'Hello ', { segments: [seg('Hello')] });
    const before = await storedItems(u.id);
    const res = await delta(u.token, id, 6, 'one two', { segments, duration: 30, language: 'pt-BR' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
    expect(await storedItems(u.id)).toEqual(before);
  });
});


describe('autosave session key', () => {
  const open = (token: string, key: string) => call<{ sessionId?: string; error?: string }>('autosaveSessionId', { token, query: { key } });
  const sessionItems = async (userId: string) => (await storedItems(userId)).filter((i) => String(i.SK).startsWith('AUTO#'));

  it('every request with the same key gives the one session the first opened; another key opens another', async () => {
    const u = await registerUser();
    const key = crypto.randomUUID();
    const first = await open(u.token, key);
    expect(first.status).toBe(200);
    // A retry, a reload's request and a duplicate sent at the same time.
    const again = await Promise.all([open(u.token, key), open(u.token, key), open(u.token, key)]);
    expect(again.map((r) => [r.status, r.body.sessionId])).toEqual(Array(3).fill([200, first.body.sessionId]));
    expect((await sessionItems(u.id)).map((i) => i.id)).toEqual([first.body.sessionId]);

    const other = await open(u.token, crypto.randomUUID());
    expect(other.body.sessionId).not.toBe(first.body.sessionId);
    const list = (await call<{ keptThisMonth: number }>('listAutomaticTranscriptions', { token: u.token })).body;
    expect(list.keptThisMonth).toBe(2);
  });

  it('concurrent first requests with one key open one session', async () => {
    const u = await registerUser();
    const key = crypto.randomUUID();
    const replies = await Promise.all(Array.from({ length: 6 }, () => open(u.token, key)));
    expect(replies.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(new Set(replies.map((r) => r.body.sessionId)).size).toBe(1);
    expect(await sessionItems(u.id)).toHaveLength(1);
  });

  it("users with the same key get sessions of their own, never the other's", async () => {
    const a = await registerUser();
    const b = await registerUser();
    const key = crypto.randomUUID();
    const ofA = (await open(a.token, key)).body.sessionId!;
    const ofB = (await open(b.token, key)).body.sessionId!;
    expect(ofB).not.toBe(ofA);
    expect((await open(a.token, key)).body.sessionId).toBe(ofA);
    expect((await open(b.token, key)).body.sessionId).toBe(ofB);
    expect((await delta(a.token, ofB, 0, 'not yours')).status).toBe(404);
    expect((await sessionItems(a.id)).map((i) => i.id)).toEqual([ofA]);
    expect((await sessionItems(b.id)).map((i) => i.id)).toEqual([ofB]);
  });

  it('a deleted session stays gone: its key names it still, and saving to it is 404', async () => {
    const u = await registerUser();
    const key = crypto.randomUUID();
    const id = (await open(u.token, key)).body.sessionId!;
    expect((await call('deleteAutomaticTranscription', { token: u.token, params: { id } })).status).toBe(200);
    expect((await open(u.token, key)).body.sessionId).toBe(id);
    expect((await delta(u.token, id, 0, 'late text')).status).toBe(404);
    expect(await sessionItems(u.id)).toEqual([]);
  });

  it.each([
    ['too short', 'abc123'],
    ['too long', 'k'.repeat(65)],
    ['with other characters', 'key#with/other chars'],
    ['that is empty', ''],
  ])('a key %s is refused with 400 and nothing stored changes', async (_, key) => {
    const u = await registerUser();
    await open(u.token, crypto.randomUUID());
    const before = await storedItems(u.id);
    const res = await open(u.token, key);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('key must be 10 to 64 letters, digits, hyphens or underscores');
    expect(await storedItems(u.id)).toEqual(before);
  });
});

describe("a free account's automatic transcriptions a month", () => {
  type Refusal = { sessionId?: string; error?: string; code?: string; requiresPro?: boolean };
  const open = (token: string, key?: string) => call<Refusal>('autosaveSessionId', { token, query: key === undefined ? {} : { key } });
  const kept = async (token: string) => (await call<{ keptThisMonth: number }>('listAutomaticTranscriptions', { token })).body.keptThisMonth;
  const sessionIds = async (userId: string) =>
    (await storedItems(userId)).filter((i) => String(i.SK).startsWith('AUTO#')).map((i) => String(i.id));
  afterEach(() => {
    vi.useRealTimers();
  });

  it(`keeps ${FREE_AUTOMATIC_PER_MONTH}; the next is refused with 403 {error, code} and leaves nothing stored; deleting one makes room`, async () => {
    const u = await registerUser();
    const keys = Array.from({ length: FREE_AUTOMATIC_PER_MONTH }, () => crypto.randomUUID());
    const ids: string[] = [];
    for (const key of keys) {
      const res = await open(u.token, key);
      expect(res.status).toBe(200);
      ids.push(res.body.sessionId!);
    }
    expect(await kept(u.token)).toBe(FREE_AUTOMATIC_PER_MONTH);

    const before = await storedItems(u.id);
    for (const refused of [await open(u.token, crypto.randomUUID()), await open(u.token)]) {
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        error: expect.stringContaining(`keeps ${FREE_AUTOMATIC_PER_MONTH} automatic transcriptions a month`) as unknown,
        code: 'automatic_limit',
        requiresPro: true,
      });
    }
    // Neither the session nor its key stays: a retry with that key asks again.
    expect(await storedItems(u.id)).toEqual(before);

    // A key that already names a session still gives it (a retry of a session the month kept).
    expect((await open(u.token, keys[2])).body.sessionId).toBe(ids[2]);

    expect((await call('deleteAutomaticTranscription', { token: u.token, params: { id: ids[0]! } })).status).toBe(200);
    const again = await open(u.token, crypto.randomUUID());
    expect(again.status).toBe(200);
    expect(await kept(u.token)).toBe(FREE_AUTOMATIC_PER_MONTH);
    expect((await sessionIds(u.id)).sort()).toEqual([...ids.slice(1), again.body.sessionId!].sort());
  });

  it('counts only the calendar month: last month\'s sessions leave this month\'s allowance whole', async () => {
    const now = new Date();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) - 60_000); // the previous month's last minute
    const u = await registerUser();
    for (let i = 0; i < FREE_AUTOMATIC_PER_MONTH; i++) expect((await open(u.token, crypto.randomUUID())).status).toBe(200);
    expect((await open(u.token, crypto.randomUUID())).status).toBe(403);
    vi.useRealTimers();
    // Signed in again now (the first token was made on last month's clock).
    const token = sessionCookieOf(await call('login', { body: { email: u.email, password: u.password } }))!;
    expect(await kept(token)).toBe(0);
    expect((await open(token, crypto.randomUUID())).status).toBe(200);
    expect(await sessionIds(u.id)).toHaveLength(FREE_AUTOMATIC_PER_MONTH + 1);
  });

  it('sessions opened at the same moment never pass the allowance', async () => {
    const u = await registerUser();
    const first = FREE_AUTOMATIC_PER_MONTH - 2;
    for (let i = 0; i < first; i++) expect((await open(u.token, crypto.randomUUID())).status).toBe(200);
    const replies = await Promise.all(Array.from({ length: 6 }, () => open(u.token, crypto.randomUUID())));
    const opened = replies.filter((r) => r.status === 200).map((r) => r.body.sessionId!);
    expect(replies.filter((r) => r.status !== 200).map((r) => [r.status, r.body.code])).toEqual(Array(6 - opened.length).fill([403, 'automatic_limit']));
    expect(opened.length).toBeLessThanOrEqual(2);
    const stored = await sessionIds(u.id);
    expect(stored).toHaveLength(first + opened.length);
    expect(stored).toEqual(expect.arrayContaining(opened));
  });

  it('Pro keeps every one, and so does a free account once it is Pro', async () => {
    const u = await registerUser();
    for (let i = 0; i < FREE_AUTOMATIC_PER_MONTH; i++) await open(u.token, crypto.randomUUID());
    expect((await open(u.token, crypto.randomUUID())).status).toBe(403);
    await setPlan(u.id, 'pro', new Date(Date.now() + 86_400_000).toISOString());
    for (let i = 0; i < 3; i++) expect((await open(u.token, crypto.randomUUID())).status).toBe(200);
    expect(await kept(u.token)).toBe(FREE_AUTOMATIC_PER_MONTH + 3);
  });
});
