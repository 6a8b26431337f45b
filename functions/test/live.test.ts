import { BatchWriteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CAPTION_STYLE } from '@app/shared/caption-style';
import {
  LIVE_CACHE_SECONDS,
  LIVE_GRACE_SECONDS,
  LIVE_HOLD_CHECK_MS,
  LIVE_HOLD_SECONDS,
  LIVE_SHARE_SECONDS,
  LIVE_VIEW_MAX_CHARS,
  LIVE_VIEWER_PING_MS,
  LIVE_VIEWERS_MAX,
} from '@app/shared/constants';
import { db, tableName } from '../src/db/client.ts';
import { readTextFrom } from '../src/db/chunk-store.ts';
import { keys } from '../src/db/keys.ts';
import { CHUNK_CHARS } from '../src/domain/text.ts';
import { countViewers, newLiveCode, recordViewer } from '../src/db/live-shares.ts';
import { queryPages } from '../src/db/pages.ts';
import { setPlan } from '../src/db/users.ts';
import { LIVE_COUNT_RATE } from '../src/handlers/live/count-viewers.ts';
import { LIVE_SHARE_RATE } from '../src/handlers/live/start-share.ts';
import { viewLiveShare } from '../src/handlers/live/view-share.ts';
import { responseCache, startLocalServer, type LocalServer } from '../src/local/server.ts';
import { routes } from '@app/shared/routes';
import { LIVE_OFFSET_REFUSAL } from '../../infra/lib/edge-functions.ts';
import { call, pathOf, registerUser, routeKey } from './call.ts';

type View = { status: 'live' | 'ended'; from: number; text: string; next: number; language: string; updatedAt: string; error?: string };

let ipSeq = 0;
/** A fresh client address per test, so rate-limit windows do not leak between tests. */
const freshIp = () => `203.0.113.${++ipSeq}`;

async function proUser() {
  const u = await registerUser();
  await setPlan(u.id, 'pro', null);
  return u;
}

async function newSession(token: string) {
  const res = await call<{ sessionId: string }>('autosaveSessionId', { token });
  expect(res.status).toBe(200);
  return res.body.sessionId;
}

/** Text appended through the real autosave route, as the speaker's client sends it while sharing. */
async function say(token: string, sessionId: string, offset: number, text: string, language = 'pt-BR') {
  const res = await call<{ length: number }>('autosaveSave', {
    token,
    body: { sessionId, offset, text, segments: [], duration: 10, language },
  });
  expect(res.status).toBe(200);
  return res.body.length;
}

const share = (token: string, sessionId: string, sourceIp = freshIp(), includeEarlier?: boolean) =>
  call<{ code: string; expiresAt: string; error?: string; requiresPro?: boolean }>('startLiveShare', {
    token,
    body: { sessionId, ...(includeEarlier === undefined ? {} : { includeEarlier }) },
    sourceIp,
  });
const view = (code: string, after?: number | string) =>
  call<View>('viewLiveShare', { params: { code }, query: after === undefined ? {} : { after: String(after) } });
/** The view held at most `holdMs` (the route holds LIVE_HOLD_SECONDS): its status, body and cache header. */
const held = async (code: string, after: number, holdMs: number) => {
  const reply = await viewLiveShare(code, after, holdMs);
  return { body: reply.body as View, cache: reply.headers['cache-control'] };
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const stop = (token: string, code: string) => call('stopLiveShare', { token, params: { code }, sourceIp: freshIp() });

/** A Pro speaker with a session holding `text` (sent in the given pieces), shared with what was said before sharing (or not). */
async function sharedSession(pieces: string[] = ['Olá a vocês. ', 'Bem-vindos.'], includeEarlier = true) {
  const u = await proUser();
  const sessionId = await newSession(u.token);
  let offset = 0;
  for (const piece of pieces) offset = await say(u.token, sessionId, offset, piece);
  const res = await share(u.token, sessionId, freshIp(), includeEarlier);
  expect(res.status).toBe(200);
  return { u, sessionId, code: res.body.code };
}

describe('starting a live share', () => {
  it('is for Pro users: a free user gets 403 with requiresPro', async () => {
    const u = await registerUser();
    const res = await share(u.token, await newSession(u.token));
    expect(res.status).toBe(403);
    expect(res.body.requiresPro).toBe(true);
    expect((await call('startLiveShare', { body: { sessionId: '01ARZ3NDEKTSV4RRFFQ69G5FAV' } })).status).toBe(401);
  });

  it('gives a short unguessable URL-safe code and the time the link dies (12 hours)', async () => {
    const u = await proUser();
    const sessionId = await newSession(u.token);
    const before = Date.now();
    const res = await share(u.token, sessionId);
    expect(res.status).toBe(200);
    expect(res.body.code).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(res.body.code).not.toContain(sessionId.slice(0, 6));
    const expires = Date.parse(res.body.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + LIVE_SHARE_SECONDS * 1000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + LIVE_SHARE_SECONDS * 1000 + 1000);
    // Another session of the same user gets another code.
    const other = await share(u.token, await newSession(u.token));
    expect(other.body.code).not.toBe(res.body.code);
  });

  it('is idempotent: sharing a session again, even concurrently, gives the same code', async () => {
    const u = await proUser();
    const sessionId = await newSession(u.token);
    const first = await share(u.token, sessionId);
    const again = await share(u.token, sessionId);
    expect(again.body).toEqual(first.body);

    const fresh = await newSession(u.token);
    const both = await Promise.all([share(u.token, fresh), share(u.token, fresh), share(u.token, fresh)]);
    expect(new Set(both.map((r) => r.body.code)).size).toBe(1);
    expect((await share(u.token, fresh)).body.code).toBe(both[0]!.body.code);
  });

  it("refuses another user's session and an unknown one (404), and a completed one (409)", async () => {
    const owner = await proUser();
    const intruder = await proUser();
    const sessionId = await newSession(owner.token);
    const theirs = await share(intruder.token, sessionId);
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toEqual(expect.any(String));
    expect((await share(owner.token, '01ARZ3NDEKTSV4RRFFQ69G5FAV')).status).toBe(404);
    expect((await call('autosaveComplete', { token: owner.token, body: { sessionId } })).status).toBe(200);
    const done = await share(owner.token, sessionId);
    expect(done.status).toBe(409);
    expect(done.body).toMatchObject({ error: expect.any(String), code: 'session_completed' });
  });

  it('refuses bad input with 400 JSON', async () => {
    const u = await proUser();
    for (const body of [{}, { sessionId: 'x' }, { sessionId: 42 }]) {
      const res = await call('startLiveShare', { token: u.token, body, sourceIp: freshIp() });
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual(expect.any(String));
    }
    expect((await call('startLiveShare', { token: u.token, rawBody: '{', sourceIp: freshIp() })).status).toBe(400);
  });

  it('gives a new code once the old share was stopped', async () => {
    const { u, sessionId, code } = await sharedSession();
    expect((await stop(u.token, code)).status).toBe(200);
    const again = await share(u.token, sessionId);
    expect(again.status).toBe(200);
    expect(again.body.code).not.toBe(code);
    expect((await view(again.body.code)).body.status).toBe('live');
  });

  it(`is limited per client address (${LIVE_SHARE_RATE.limit} an hour)`, async () => {
    const u = await proUser();
    const sessionId = await newSession(u.token);
    const ip = freshIp();
    for (let i = 0; i < LIVE_SHARE_RATE.limit; i++) expect((await share(u.token, sessionId, ip)).status).toBe(200);
    const limited = await share(u.token, sessionId, ip);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: expect.any(String), code: 'rate_limited' });
  });
});

describe('following a live share', () => {
  it("carries the owner's share profanity mode of when it started (mask by default)", async () => {
    const { code } = await sharedSession(['Olá.']);
    expect((await view(code)).body).toMatchObject({ mask: 'mask' });

    const owner = await proUser();
    const corrections = { replacements: [], profanity: 'off', shareProfanity: 'hide', voiceCommands: false, paragraphSilence: 2 };
    expect((await call('putCorrections', { token: owner.token, body: corrections })).status).toBe(200);
    const sessionId = await newSession(owner.token);
    const started = await share(owner.token, sessionId);
    // Its session is empty: the view, held a moment, answers no text but the mode.
    expect((await held(started.body.code, 0, 200)).body).toMatchObject({ mask: 'hide' });
    // Changing the setting later does not change a share under way.
    await call('putCorrections', { token: owner.token, body: { ...corrections, shareProfanity: 'off' } });
    expect((await held(started.body.code, 0, 200)).body).toMatchObject({ mask: 'hide' });
  });

  it("carries the owner's caption style of when it started, and none when they saved none", async () => {
    const { code } = await sharedSession(['Olá.']);
    expect((await view(code)).body).not.toHaveProperty('style');

    const owner = await proUser();
    const style = { ...DEFAULT_CAPTION_STYLE, font: 'opendyslexic', color: '#000000', background: '#fde047', position: 'lowerThird' };
    expect((await call('putCaptionStyle', { token: owner.token, body: style })).status).toBe(200);
    const sessionId = await newSession(owner.token);
    const started = await share(owner.token, sessionId);
    expect((await held(started.body.code, 0, 200)).body).toMatchObject({ style });
    // Changing the style later does not change a share under way.
    await call('putCaptionStyle', { token: owner.token, body: { ...style, font: 'serif' } });
    expect((await held(started.body.code, 0, 200)).body).toMatchObject({ style });
  });

  it('gives the transcript from an offset, where to ask next, the language and the status', async () => {
    const { code } = await sharedSession(['Olá a vocês. ', 'Bem-vindos.']);
    const whole = await view(code);
    expect(whole.status).toBe(200);
    expect(whole.body).toMatchObject({ status: 'live', from: 0, text: 'Olá a vocês. Bem-vindos.', next: 24, language: 'pt-BR' });
    expect(whole.headers['cache-control']).toBe(`public, max-age=${LIVE_CACHE_SECONDS}`);
    // On a chunk boundary (as a viewer asking from its `next` always is): from there.
    expect((await view(code, 13)).body).toMatchObject({ from: 13, text: 'Bem-vindos.', next: 24 });
    // At the end: held while nothing new comes, then nothing, the end as next, and never kept.
    expect(await held(code, 24, 300)).toEqual({ body: expect.objectContaining({ from: 24, text: '', next: 24 }), cache: 'no-store' });
    // Beyond it (never an offset the server gave): nothing and the end as next, at once.
    expect((await view(code, 500)).body).toMatchObject({ status: 'live', from: 24, text: '', next: 24 });
  });

  it('answers an offset inside a stored chunk from the start of that chunk: one answer for every offset in it', async () => {
    const { code } = await sharedSession(['Olá a vocês. ', 'Bem-vindos.']);
    const first = (await view(code, 4)).body;
    expect(first).toMatchObject({ from: 0, text: 'Olá a vocês. Bem-vindos.', next: 24 });
    for (const after of [1, 12]) expect((await view(code, after)).body, String(after)).toEqual(first);
    const last = (await view(code, 16)).body;
    expect(last).toMatchObject({ from: 13, text: 'Bem-vindos.', next: 24 });
    for (const after of [14, 23]) expect((await view(code, after)).body, String(after)).toEqual(last);
  });

  it('never answers from before the share began, nor past where a stopped share ends, whatever chunk the offset falls in', async () => {
    const u = await proUser();
    const sessionId = await newSession(u.token);
    await say(u.token, sessionId, 0, 'Privado. ');
    const { code } = (await share(u.token, sessionId, freshIp(), false)).body;
    // The share starts at 9, a chunk boundary; a chunk from 0 to 9 is not the viewers' to read.
    await db().send(new UpdateCommand({ TableName: tableName(), Key: keys.liveShare(code), UpdateExpression: 'SET startOffset = :s', ExpressionAttributeValues: { ':s': 4 } }));
    expect((await view(code, 2)).body).toMatchObject({ from: 4, text: 'ado. ', next: 9 });
    expect((await view(code, 6)).body).toMatchObject({ from: 4, text: 'ado. ', next: 9 });
    await say(u.token, sessionId, 9, 'Público, e mais.');
    expect((await stop(u.token, code)).status).toBe(200);
    // Stopped at 25 (the session's length then); a frozen end inside a chunk cuts its text there.
    await db().send(new UpdateCommand({ TableName: tableName(), Key: keys.liveShare(code), UpdateExpression: 'SET endOffset = :e', ExpressionAttributeValues: { ':e': 17 } }));
    expect((await view(code, 12)).body).toMatchObject({ status: 'ended', from: 9, text: 'Público,', next: 17 });
    expect((await view(code, 20)).body).toMatchObject({ from: 17, text: '', next: 17 });
  });

  it('shows text the speaker appends through the autosave route, without gaps or repeats', async () => {
    const { u, sessionId, code } = await sharedSession(['Primeira frase. ']);
    let next = 0;
    let seen = '';
    const follow = async () => {
      const res = await view(code, next);
      seen += res.body.text;
      next = res.body.next;
    };
    await follow();
    let offset = next;
    for (const piece of ['Segunda frase. ', 'Terceira, ', 'com acentuação: ção.']) {
      offset = await say(u.token, sessionId, offset, piece);
      await follow();
    }
    expect(seen).toBe('Primeira frase. Segunda frase. Terceira, com acentuação: ção.');
    expect(next).toBe(seen.length);
  });

  it('holds a viewer at the end until the speaker saves more, then answers at once with it (a long poll)', async () => {
    const { u, sessionId, code } = await sharedSession(['Um. ']);
    const asked = Date.now();
    const waiting = view(code, 4);
    await sleep(300);
    await say(u.token, sessionId, 4, 'Dois.');
    const saved = Date.now();
    const res = await waiting;
    expect(res.body).toMatchObject({ status: 'live', from: 4, text: 'Dois.', next: 9 });
    expect(res.headers['cache-control']).toBe(`public, max-age=${LIVE_CACHE_SECONDS}`);
    // Held past the 300 ms of silence, answered within a few checks of the save (far from the hold's end).
    expect(saved - asked).toBeGreaterThanOrEqual(300);
    expect(Date.now() - saved).toBeLessThan(LIVE_HOLD_CHECK_MS * 10);
  });

  it('answers a held viewer when the speaker stops sharing (ended), with nothing said after', async () => {
    const { u, code } = await sharedSession(['Um. ']);
    const waiting = view(code, 4);
    await sleep(200);
    expect((await stop(u.token, code)).status).toBe(200);
    const started = Date.now();
    expect((await waiting).body).toMatchObject({ status: 'ended', text: '', next: 4 });
    expect(Date.now() - started).toBeLessThan(LIVE_HOLD_SECONDS * 1000);
  });

  it('an empty session: no text yet, next 0', async () => {
    const { code } = await sharedSession([]);
    expect((await held(code, 0, 200)).body).toMatchObject({ status: 'live', from: 0, text: '', next: 0 });
    expect((await view(code, 10)).body).toMatchObject({ from: 0, text: '', next: 0 });
  });

  it('once stopped: ended, and never the text spoken after stopping', async () => {
    const { u, sessionId, code } = await sharedSession(['Antes. ']);
    expect((await stop(u.token, code)).status).toBe(200);
    await say(u.token, sessionId, 7, 'Depois, em privado.');
    expect((await view(code)).body).toMatchObject({ status: 'ended', text: 'Antes. ', next: 7 });
    expect((await view(code, 7)).body).toMatchObject({ status: 'ended', text: '', next: 7 });
    expect((await view(code, 20)).body).toMatchObject({ text: '', next: 7 });
    // Stopping again is fine.
    expect((await stop(u.token, code)).status).toBe(200);
  });

  it('only the owner can stop it: anyone else (or an unknown code) gets 404 and nothing changes', async () => {
    const { code } = await sharedSession();
    const intruder = await proUser();
    const res = await stop(intruder.token, code);
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual(expect.any(String));
    expect((await stop(intruder.token, 'AAAAAAAAAAAA')).status).toBe(404);
    expect((await call('stopLiveShare', { params: { code } })).status).toBe(401);
    expect((await view(code)).body.status).toBe('live');
  });

  it('once expired: ended, with no more text (DynamoDB deletes it later, so the code checks expiresAt)', async () => {
    const { code } = await sharedSession(['Texto. ']);
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.liveShare(code),
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
      }),
    );
    expect((await view(code, 7)).body).toMatchObject({ status: 'ended', text: '', next: 7 });
  });

  it('once the session completes: ended, with its whole text', async () => {
    const { u, sessionId, code } = await sharedSession(['Fim da palestra.']);
    expect((await call('autosaveComplete', { token: u.token, body: { sessionId } })).status).toBe(200);
    expect((await view(code)).body).toMatchObject({ status: 'ended', text: 'Fim da palestra.', next: 16 });
  });

  it('unknown, malformed or deleted: 404 JSON; a bad offset: 400', async () => {
    for (const code of ['AAAAAAAAAAAA', 'short', 'has space!!!', 'a'.repeat(200), '../../etc']) {
      const res = await view(code);
      expect(res.status, code).toBe(404);
      expect(res.body).toMatchObject({ error: expect.any(String) });
    }
    const { u, sessionId, code } = await sharedSession();
    // Only one spelling of each offset (`00`, `007` would be other cache keys for the same text).
    for (const after of ['-1', 'abc', '1.5', '99999999999', '00', '007', '+5', ' 5']) {
      const res = await view(code, after);
      expect(res.status, after).toBe(400);
      expect(res.body.error).toEqual(expect.any(String));
    }
    expect((await call('deleteAutomaticTranscription', { token: u.token, params: { id: sessionId } })).status).toBe(200);
    expect((await view(code)).status).toBe(404);
  });

  it('never names the owner or the session in any answer', async () => {
    const { u, sessionId, code } = await sharedSession();
    const answers: { status: number; body: unknown; headers: unknown }[] = [await share(u.token, sessionId), await view(code), await view(code, 3), await view('AAAAAAAAAAAA')];
    answers.push(await call('recordLiveViewer', { params: { code }, body: { viewerId: vid('0001') }, sourceIp: freshIp() }));
    answers.push(await call('countLiveViewers', { token: u.token, params: { code }, sourceIp: freshIp() }));
    await stop(u.token, code);
    answers.push(await view(code));
    for (const a of answers) {
      const text = JSON.stringify(a);
      expect(text).not.toContain(u.id);
      expect(text).not.toContain(sessionId);
      expect(text).not.toContain(u.email);
    }
  });
});

/** Counting spans this minute and the last: a test that places viewers in minutes starts well inside one. */
/** Moves a share's or a session's moment into the past, as if that much time had gone by. */
async function backdate(key: Record<string, string>, attribute: 'stoppedAt' | 'updatedAt', seconds: number) {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: `SET ${attribute} = :then`,
      ExpressionAttributeValues: { ':then': new Date(Date.now() - seconds * 1000).toISOString() },
    }),
  );
}
const expire = (code: string) =>
  db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.liveShare(code),
      UpdateExpression: 'SET expiresAt = :past',
      ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
    }),
  );

describe('a late viewer of a long talk', () => {
  it(`gets at most ${LIVE_VIEW_MAX_CHARS} characters (whole chunks) per answer, and catches up in a few polls, in order`, async () => {
    const u = await proUser();
    const sessionId = await newSession(u.token);
    const pieces = Array.from({ length: 6 }, (_, i) => `${String.fromCharCode(65 + i)}${'x'.repeat(14_998)} `);
    let offset = 0;
    for (const piece of pieces) offset = await say(u.token, sessionId, offset, piece);
    const { code } = (await share(u.token, sessionId, freshIp(), true)).body;
    let next = 0;
    let seen = '';
    let polls = 0;
    while (next < offset) {
      const { body } = await view(code, next);
      expect(body.text.length).toBeLessThanOrEqual(LIVE_VIEW_MAX_CHARS + CHUNK_CHARS);
      expect(body.text.length).toBeGreaterThan(0);
      seen += body.text;
      next = body.next;
      polls++;
    }
    expect(seen).toBe(pieces.join(''));
    expect(polls).toBeGreaterThan(1);
    expect(polls).toBeLessThanOrEqual(Math.ceil(offset / LIVE_VIEW_MAX_CHARS) + 1);
  });

  it('reads at most the given number of chunks in one answer', async () => {
    const u = await proUser();
    const sessionId = await newSession(u.token);
    let offset = 0;
    for (const word of ['um ', 'dois ', 'três ', 'quatro ', 'cinco ']) offset = await say(u.token, sessionId, offset, word);
    const first = await readTextFrom(u.id, 'AUTO', sessionId, 0, offset, { maxChars: 1_000, maxChunks: 2 });
    expect(first).toEqual({ from: 0, text: 'um dois ', next: 8 });
    const rest = await readTextFrom(u.id, 'AUTO', sessionId, first.next, offset, { maxChars: 1_000, maxChunks: 10 });
    expect(rest).toEqual({ from: 8, text: 'três quatro cinco ', next: offset });
  });
});

describe('live links that end', () => {
  it('by default shows the words said from when sharing began, not before; includeEarlier shows them too', async () => {
    const { u, sessionId, code } = await sharedSession(['Conversa privada antes. '], false);
    expect((await view(code)).body).toMatchObject({ status: 'live', text: '', next: 24 });
    await say(u.token, sessionId, 24, 'Agora, para vocês.');
    expect((await view(code)).body).toMatchObject({ text: 'Agora, para vocês.', next: 42 });
    expect((await view(code, 3)).body).toMatchObject({ from: 24, text: 'Agora, para vocês.', next: 42 });
    const open = await sharedSession(['Tudo. '], true);
    expect((await view(open.code)).body).toMatchObject({ text: 'Tudo. ', next: 6 });
  });

  it('a stopped link reveals nothing new: not the words, nor the language or the time of what follows', async () => {
    const { u, sessionId, code } = await sharedSession(['Antes. ']);
    const before = (await view(code)).body;
    expect((await stop(u.token, code)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 5));
    await say(u.token, sessionId, 7, 'Now in English, in private.', 'en-US');
    const after = (await view(code)).body;
    expect(after).toMatchObject({ status: 'ended', text: 'Antes. ', next: 7, language: 'pt-BR', updatedAt: before.updatedAt });
  });

  it(`a stopped or completed link shows its last words for a short grace (${LIVE_GRACE_SECONDS} s), then no text`, async () => {
    const stopped = await sharedSession(['Últimas palavras. ']);
    expect((await stop(stopped.u.token, stopped.code)).status).toBe(200);
    await backdate(keys.liveShare(stopped.code), 'stoppedAt', LIVE_GRACE_SECONDS - 10);
    expect((await view(stopped.code)).body).toMatchObject({ status: 'ended', text: 'Últimas palavras. ' });
    await backdate(keys.liveShare(stopped.code), 'stoppedAt', LIVE_GRACE_SECONDS + 1);
    expect((await view(stopped.code)).body).toMatchObject({ status: 'ended', text: '', next: 0 });

    const completed = await sharedSession(['Fim. ']);
    expect((await call('autosaveComplete', { token: completed.u.token, body: { sessionId: completed.sessionId } })).status).toBe(200);
    expect((await view(completed.code)).body).toMatchObject({ status: 'ended', text: 'Fim. ' });
    await backdate(keys.transcript(completed.u.id, 'AUTO', completed.sessionId), 'updatedAt', LIVE_GRACE_SECONDS + 1);
    expect((await view(completed.code)).body).toMatchObject({ status: 'ended', text: '' });
  });

  it('an expired link shows no text in any state: live, stopped or completed', async () => {
    const live = await sharedSession(['Um. ']);
    const stopped = await sharedSession(['Dois. ']);
    await stop(stopped.u.token, stopped.code);
    const completed = await sharedSession(['Três. ']);
    await call('autosaveComplete', { token: completed.u.token, body: { sessionId: completed.sessionId } });
    for (const { code } of [live, stopped, completed]) {
      await expire(code);
      expect((await view(code)).body, code).toMatchObject({ status: 'ended', text: '' });
    }
  });

  it("lists the caller's links (live or ended, newest first) and stops them all at once", async () => {
    const u = await proUser();
    const codes: string[] = [];
    for (let i = 0; i < 3; i++) {
      const sessionId = await newSession(u.token);
      await say(u.token, sessionId, 0, `Sessão ${i}. `);
      codes.push((await share(u.token, sessionId)).body.code);
    }
    await stop(u.token, codes[0]!);
    const other = await sharedSession();
    const list = await call<{ links: { code: string; status: string; createdAt: string; expiresAt: string }[] }>('listLiveShares', { token: u.token });
    expect(list.status).toBe(200);
    expect(list.body.links.map((l) => [l.code, l.status])).toEqual([
      [codes[2], 'live'],
      [codes[1], 'live'],
      [codes[0], 'ended'],
    ]);
    expect(JSON.stringify(list.body)).not.toContain(other.code);
    const all = await call<{ stopped: number }>('stopAllLiveShares', { token: u.token, sourceIp: freshIp() });
    expect(all.body).toEqual({ stopped: 2 });
    for (const code of codes) expect((await view(code)).body.status).toBe('ended');
    expect((await view(other.code)).body.status).toBe('live');
    const after = await call<{ links: { status: string }[] }>('listLiveShares', { token: u.token });
    expect(after.body.links.map((l) => l.status)).toEqual(['ended', 'ended', 'ended']);
    // An expired link leaves the list.
    await expire(codes[1]!);
    expect((await call<{ links: { code: string }[] }>('listLiveShares', { token: u.token })).body.links.map((l) => l.code)).toEqual([codes[2], codes[0]]);
    expect((await call('listLiveShares', {})).status).toBe(401);
    expect((await call('stopAllLiveShares', {})).status).toBe(401);
  });
});

/**
 * Keeps a test's pings and counts in one minute: with less than 10 s left of this one, the clock
 * (Date alone: timers stay real, and time goes on) jumps to the first second of the next, instead
 * of the test waiting for it. The describe's afterEach puts the real clock back.
 */
function awayFromMinuteEdge() {
  const now = Date.now();
  if (now % 60_000 > 50_000) vi.useFakeTimers({ toFake: ['Date'], now: (Math.floor(now / 60_000) + 1) * 60_000 + 1000, shouldAdvanceTime: true });
}

/** A viewer id (a UUID, as the viewer page makes) named by `name`, the same for the same name. */
const vid = (name: string) => `00000000-0000-4000-8000-${createHash('sha256').update(name).digest('hex').slice(0, 12)}`;

describe('viewer count', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const ping = (code: string, viewerId: string, sourceIp = freshIp()) => call('recordLiveViewer', { params: { code }, body: { viewerId }, sourceIp });
  const count = (token: string, code: string) => call<{ viewers: number; error?: string }>('countLiveViewers', { token, params: { code }, sourceIp: freshIp() });

  it('counts distinct viewers of this minute and the last, for the owner only', async () => {
    const { u, code } = await sharedSession();
    awayFromMinuteEdge();
    expect((await count(u.token, code)).body.viewers).toBe(0);
    for (const id of [vid('aaaa'), vid('bbbb'), vid('aaaa')]) expect((await ping(code, id)).status).toBe(200);
    // One heard only last minute still counts; one heard two minutes ago no longer does.
    const now = Math.floor(Date.now() / 1000);
    await recordViewer(code, vid('cccc'), now - 60);
    await recordViewer(code, vid('dddd'), now - 120);
    expect((await count(u.token, code)).body).toEqual({ viewers: 3 });

    const intruder = await proUser();
    const theirs = await count(intruder.token, code);
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toEqual(expect.any(String));
    expect((await call('countLiveViewers', { params: { code } })).status).toBe(401);
  });

  /**
   * The seconds (from the start of a minute) at which a viewer pinging every `everySeconds`, first
   * at second `phase` of that minute, is not counted, over its first three intervals.
   */
  async function uncounted(everySeconds: number, phase: number): Promise<number[]> {
    const code = newLiveCode();
    const base = (Math.floor(Date.now() / 60_000) + 1) * 60;
    const end = phase + 3 * everySeconds;
    // The count changes only at a ping or a minute's edge: checked at each of those and the second
    // before each edge, it is checked at every second in between too.
    const moments = new Set<number>();
    for (let t = phase; t < end; t += everySeconds) moments.add(t);
    for (let edge = 0; edge <= end; edge += 60) for (const t of [edge - 1, edge]) if (t >= phase && t < end) moments.add(t);
    const missed: number[] = [];
    for (const t of [...moments].sort((a, b) => a - b)) {
      // The pings as time passes: the count at a moment knows only those sent by then.
      if ((t - phase) % everySeconds === 0) await recordViewer(code, vid(`steady-${everySeconds}-${phase}`), base + t);
      if ((await countViewers(code, base + t)) !== 1) missed.push(t);
    }
    return missed;
  }

  it('counts a viewer pinging every LIVE_VIEWER_PING_MS at every moment: the count covers a minute and the last, so any interval up to 60 s does', async () => {
    // A late timer or a slow ping still lands inside the count's window.
    expect(LIVE_VIEWER_PING_MS).toBeLessThanOrEqual(50_000);
    for (const phase of [0, 1, 30, 59]) expect(await uncounted(LIVE_VIEWER_PING_MS / 1000, phase), `phase ${phase}`).toEqual([]);
    // The boundary: every 60 s is still counted throughout, whatever second of the minute it pings at.
    for (const phase of [0, 59]) expect(await uncounted(60, phase), `60 s, phase ${phase}`).toEqual([]);
    // A longer gap is not: heard at the last second of a minute, a viewer is counted until the end of the next one.
    expect(await uncounted(62, 59)).toEqual([120]);
  });

  // It writes 5,030 items: seconds alone, up to three times that beside the other projects.
  it(`counts at most ${LIVE_VIEWERS_MAX}; a ping writes one small item of its own whatever the audience`, async () => {
    const { u, code } = await sharedSession();
    // Heard this minute, they are counted this minute and the next: no need to keep off a minute's edge.
    const minute = Math.floor(Date.now() / 60_000);
    const heard = Array.from({ length: LIVE_VIEWERS_MAX + 30 }, (_, i) => keys.liveViewer(code, minute, vid(`many-${i}`)));
    const batches: (typeof heard)[] = [];
    for (let i = 0; i < heard.length; i += 25) batches.push(heard.slice(i, i + 25));
    // Four writers at a time: the store answers them on threads of its own.
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let batch = batches.pop(); batch; batch = batches.pop()) {
          const puts = batch.map((Key) => ({ PutRequest: { Item: { ...Key, type: 'liveViewer', expiresAt: (minute + 3) * 60 } } }));
          const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: puts } }));
          expect(out.UnprocessedItems ?? {}).toEqual({});
        }
      }),
    );
    expect((await count(u.token, code)).body.viewers).toBe(LIVE_VIEWERS_MAX);

    expect((await ping(code, vid('one-more'))).status).toBe(200);
    const item = await db().send(new GetCommand({ TableName: tableName(), Key: keys.liveViewer(code, minute, vid('one-more')), ConsistentRead: true }));
    // (Unless the minute turned meanwhile: then the ping went to the next minute.)
    if (Math.floor(Date.now() / 60_000) === minute) expect(item.Item).toMatchObject({ type: 'liveViewer', expiresAt: (minute + 3) * 60 });
    // No item of the share's partition outgrows one write unit (1 KB), however many viewers it has.
    const sizes: number[] = [];
    const partition = { TableName: tableName(), KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': keys.liveShare(code).PK } };
    for await (const page of queryPages(partition)) for (const i of page.Items ?? []) sizes.push(JSON.stringify(i).length);
    expect(sizes.length).toBeGreaterThan(LIVE_VIEWERS_MAX);
    expect(Math.max(...sizes)).toBeLessThan(1024);
  }, 60_000);

  it('records nobody for an ended share; an unknown code is 404; a bad viewer id is 400', async () => {
    const { u, code } = await sharedSession();
    await stop(u.token, code);
    const minute = Math.floor(Date.now() / 60_000);
    expect((await ping(code, vid('late'))).status).toBe(200);
    expect((await count(u.token, code)).body.viewers).toBe(0);
    // Nothing written: the function read the share, stopped.
    for (const m of [minute, minute + 1]) {
      expect((await db().send(new GetCommand({ TableName: tableName(), Key: keys.liveViewer(code, m, vid('late')), ConsistentRead: true }))).Item).toBeUndefined();
    }
    expect((await ping('AAAAAAAAAAAA', vid('aaaa'))).status).toBe(404);
    for (const body of [{}, { viewerId: 'x' }, { viewerId: 'viewer-aaaa-bbbb' }, { viewerId: `${vid('a')}0` }, { viewerId: 'v'.repeat(65) }]) {
      const res = await call('recordLiveViewer', { params: { code }, body, sourceIp: freshIp() });
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual(expect.any(String));
    }
  });

  it('counts nobody once the share stopped or expired, though pings within the function\'s memory of it still write', async () => {
    awayFromMinuteEdge();
    for (const end of ['stop', 'expire'] as const) {
      const { u, code } = await sharedSession();
      expect((await ping(code, vid('early'))).status).toBe(200);
      expect((await count(u.token, code)).body.viewers).toBe(1);
      if (end === 'stop') await stop(u.token, code);
      else await expire(code);
      // The handler still holds the share as live (read just now): the ping is written, the count ignores it.
      expect((await ping(code, vid('after'))).status).toBe(200);
      expect((await count(u.token, code)).body.viewers, end).toBe(0);
    }
  });

  it(`a ping is one write (the viewer's item) and no read once its function read the share; the owner's count is limited per client (${LIVE_COUNT_RATE.limit} a minute)`, async () => {
    const { u, code } = await sharedSession();
    awayFromMinuteEdge();
    expect((await ping(code, vid('first'))).status).toBe(200);
    const client = db();
    const send = client.send.bind(client) as (...args: unknown[]) => unknown;
    const sent: string[] = [];
    // The wrapper's maintenance check reads the site settings once per SITE_SETTINGS_CACHE_MS, whatever the
    // pings: on a busy machine that time can run out during the loop. Any other read is the ping's.
    const settings = JSON.stringify(keys.siteSettings());
    const spy = vi.spyOn(client, 'send').mockImplementation(((command: object, ...rest: unknown[]) => {
      const settingsRead = command instanceof GetCommand && JSON.stringify(command.input.Key) === settings;
      if (!settingsRead) sent.push(command.constructor.name);
      return send(command, ...rest);
    }) as never);
    try {
      // A room behind one address: the handler keeps no window per address (CloudFront's web ACL limits each address).
      const room = freshIp();
      for (let i = 0; i < 20; i++) expect((await ping(code, vid(`room-${i}`), room)).status).toBe(200);
    } finally {
      spy.mockRestore();
    }
    expect(sent).toEqual(Array.from({ length: 20 }, () => 'PutCommand'));
    expect((await count(u.token, code)).body.viewers).toBe(21);

    const owner = freshIp();
    for (let i = 0; i < LIVE_COUNT_RATE.limit; i++) {
      expect((await call('countLiveViewers', { token: u.token, params: { code }, sourceIp: owner })).status).toBe(200);
    }
    expect((await call('countLiveViewers', { token: u.token, params: { code }, sourceIp: owner })).status).toBe(429);
  });
});

describe('the local server caches the live view as CloudFront does', () => {
  let server: LocalServer;
  let dir: string;
  let base: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'live-web-'));
    server = await startLocalServer({ port: 0, webDist: dir, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await rm(dir, { recursive: true, force: true });
  });
  const calls = (key: string) => server.routeCalls.get(key)?.handlerCalls ?? 0;
  const requests = (key: string) => server.routeCalls.get(key)?.requests ?? 0;
  const VIEW = routeKey('viewLiveShare');

  it(`answers viewers asking within ${LIVE_CACHE_SECONDS} s with one handler call per path and offset`, async () => {
    const { u, sessionId, code } = await sharedSession(['Um. ']);
    const get = async (query: string) => {
      const res = await fetch(`${base}${pathOf('viewLiveShare', { code })}${query}`);
      return { status: res.status, cache: res.headers.get('x-cache'), body: (await res.json()) as View };
    };
    const start = calls(VIEW);
    const startRequests = requests(VIEW);
    // Two viewers at once, then one more, all at the same offset (an unknown parameter is not part of the key).
    const [a, b] = await Promise.all([get('?after=0'), get('?after=0')]);
    const c = await get('?after=0&x=1');
    expect([a.body, b.body, c.body].every((v) => v.text === 'Um. ')).toBe(true);
    expect(c.cache).toBe('Hit from local cache');
    expect(calls(VIEW) - start).toBe(1);
    expect(requests(VIEW) - startRequests).toBe(3);
    // Another offset is another key (inside the one chunk: the same text, from its start).
    expect((await get('?after=2')).body).toMatchObject({ from: 0, text: 'Um. ' });
    expect(calls(VIEW) - start).toBe(2);
    // New text shows once the cached answer is older than the cache time.
    await say(u.token, sessionId, 4, 'Dois.');
    await new Promise((r) => setTimeout(r, LIVE_CACHE_SECONDS * 1000 + 100));
    expect((await get('?after=0')).body.text).toBe('Um. Dois.');
    expect(calls(VIEW) - start).toBe(3);
  });

  it("passes a request that went through a CloudFront location (its Via) straight to the handler: no cache, no edge function", async () => {
    const { code } = await sharedSession(['Um. ']);
    const via = { via: '1.1 pop0.cloudfront.net (CloudFront)' };
    const start = calls(VIEW);
    const answers = await Promise.all([0, 1, 2].map(() => fetch(`${base}${pathOf('viewLiveShare', { code })}?after=0`, { headers: via })));
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.headers.get('x-cache')).toBeNull();
      expect(((await res.json()) as View).text).toBe('Um. ');
    }
    // Each one a handler call, as API Gateway makes for every request CloudFront sends it.
    expect(calls(VIEW) - start).toBe(3);
    // The location already ran the viewer-request function: a spelling it would refuse reaches the route's own check.
    const refused = await fetch(`${base}${pathOf('viewLiveShare', { code })}?after=00`, { headers: via });
    expect(refused.status).toBe(400);
    expect(calls(VIEW) - start).toBe(4);
    // Without it, the local server is CloudFront: the edge refuses that spelling before the handler.
    expect((await fetch(`${base}${pathOf('viewLiveShare', { code })}?after=00`)).status).toBe(400);
    expect(calls(VIEW) - start).toBe(4);
  });

  it('collapses the viewers held at the end into one handler call, answered as soon as the speaker saves', async () => {
    const { u, sessionId, code } = await sharedSession(['Um. ']);
    const get = async (query: string) => (await (await fetch(`${base}${pathOf('viewLiveShare', { code })}${query}`)).json()) as View;
    const start = calls(VIEW);
    const waiting = Promise.all([0, 1, 2, 3, 4].map(() => get('?after=4')));
    await sleep(300);
    await say(u.token, sessionId, 4, 'Dois.');
    expect((await waiting).map((v) => v.text)).toEqual(['Dois.', 'Dois.', 'Dois.', 'Dois.', 'Dois.']);
    expect(calls(VIEW) - start).toBe(1);
  });

  it('gives an answer marked no-store to the requests waiting for it, and keeps none (CloudFront with a minimum TTL of 0)', async () => {
    const cached = responseCache();
    let fetched = 0;
    const fetchOne = (cacheControl: string) => () => {
      fetched++;
      return new Promise<{ statusCode: number; body: string; headers: Record<string, string> }>((r) => setTimeout(() => r({ statusCode: 200, body: '{}', headers: { 'cache-control': cacheControl } }), 50));
    };
    const url = new URL('http://localhost/api/live/AbCdEfGhIjKl?after=4');
    const def = routes.viewLiveShare;
    await Promise.all([cached(def, url, fetchOne('no-store')), cached(def, url, fetchOne('no-store'))]);
    expect(fetched).toBe(1);
    await cached(def, url, fetchOne(`public, max-age=${LIVE_CACHE_SECONDS}`));
    expect(fetched).toBe(2);
    await cached(def, url, fetchOne(`public, max-age=${LIVE_CACHE_SECONDS}`));
    expect(fetched).toBe(2);
  });

  it("refuses a non-canonical offset at the edge (CloudFront's viewer-request function), before the cache and the handler", async () => {
    const { code } = await sharedSession(['Um. ']);
    const start = calls(VIEW);
    const startRequests = requests(VIEW);
    for (const query of ['?after=00', '?after=%30', '?after=+0', '?after=1e3', '?after=0&after=0', '?%61fter=0', '?after=', '?after']) {
      const res = await fetch(`${base}${pathOf('viewLiveShare', { code })}${query}`);
      expect(res.status, query).toBe(400);
      expect(res.headers.get('content-type'), query).toMatch(/^application\/json/);
      expect(await res.json(), query).toEqual(LIVE_OFFSET_REFUSAL);
    }
    expect(requests(VIEW) - startRequests).toBe(0);
    expect(calls(VIEW) - start).toBe(0);
    const ok = await fetch(`${base}${pathOf('viewLiveShare', { code })}?after=0`);
    expect(ok.status).toBe(200);
    expect(calls(VIEW) - start).toBe(1);
  });

  it("never caches the other live routes (the owner's count, the viewers' pings)", async () => {
    const { u, code } = await sharedSession();
    const countKey = routeKey('countLiveViewers');
    const start = calls(countKey);
    const startRequests = requests(countKey);
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${base}${pathOf('countLiveViewers', { code })}`, { headers: { authorization: `Bearer ${u.token}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-cache')).toBeNull();
    }
    expect(calls(countKey) - start).toBe(2);
    expect(requests(countKey) - startRequests).toBe(2);
  });
});
