import { describe, expect, it } from 'vitest';
import { DEFAULT_CAPTION_STYLE } from '@app/shared/caption-style';
import { EXPORT_TEXT_PAGE_CHARS, type ExportListResponse, type ExportTextResponse } from '@app/shared/schemas/account';
import { normaliseEmail } from '@app/shared/schemas/common';
import { userRateLimitKeys } from '../src/db/accounts.ts';
import { tableName } from '../src/db/client.ts';
import { scanPages } from '../src/db/pages.ts';
import { setPlan } from '../src/db/users.ts';
import { call, outbox, registerUser } from './call.ts';
import { assert, ORIGIN, registerPasskey } from './soft-authenticator.ts';

/** The tests that build whole accounts through the routes (tens of requests, a table scan) may take this long on a loaded machine. */
const HEAVY_MS = 120_000;

let ipSeq = 0;
const freshIp = () => `198.51.100.${++ipSeq}`;

async function proUser() {
  const u = await registerUser();
  await setPlan(u.id, 'pro', null);
  return u;
}

/** Every item of the table, read by a Scan (tests only: no route scans). */
async function scanAll(): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for await (const out of scanPages({ TableName: tableName(), ConsistentRead: true })) items.push(...(out.Items ?? []));
  return items;
}

/** The items that name the user anywhere: in a key or an attribute, by id or by email. */
const itemsOf = (items: Record<string, unknown>[], user: { id: string; email: string }) =>
  items.filter((item) => {
    const json = JSON.stringify(item).toLowerCase();
    return json.includes(user.id.toLowerCase()) || json.includes(normaliseEmail(user.email));
  });

/** A user with something of every kind the account can hold. */
async function fullAccount() {
  const u = await proUser();
  const ip = freshIp();
  // A saved transcription, edited once (a generation of chunks and a transcript-edit window).
  const saved = await call<{ _id: string }>('saveTranscription', {
    token: u.token,
    body: { title: 'Aula', duration: 12, fullTranscript: 'olá mundo. segunda frase.', segments: [{ text: 'olá mundo.', startMs: 0, endMs: 900 }] },
  });
  expect(saved.status).toBe(200);
  expect((await call('updateTranscription', { token: u.token, params: { id: saved.body._id }, body: { version: 0, fullTranscript: 'olá mundo. outra frase.' } })).status).toBe(200);
  // An automatic transcription opened with a client key, with text, shared live and watched.
  const session = await call<{ sessionId: string }>('autosaveSessionId', { token: u.token, query: { key: `key-${u.id}` } });
  const sessionId = session.body.sessionId;
  expect((await call('autosaveSave', { token: u.token, body: { sessionId, offset: 0, text: 'ao vivo agora', segments: [], duration: 5, language: 'pt-BR' } })).status).toBe(200);
  const share = await call<{ code: string }>('startLiveShare', { token: u.token, body: { sessionId }, sourceIp: ip });
  expect(share.status).toBe(200);
  // A caption destination on the share (a secret URL, kept under the share).
  const destination = await call('addCaptionDestination', { token: u.token, params: { code: share.body.code }, body: { service: 'youtube', url: `https://upload.youtube.com/closedcaption?cid=${u.id}` } });
  expect(destination.status).toBe(200);
  expect((await call('recordLiveViewer', { params: { code: share.body.code }, body: { viewerId: crypto.randomUUID() }, sourceIp: freshIp() })).status).toBe(200);
  // Settings of their own.
  expect((await call('putCorrections', { token: u.token, body: { replacements: [{ phrase: 'a', replacement: 'b' }], profanity: 'off', shareProfanity: 'mask', voiceCommands: false, paragraphSilence: 2 } })).status).toBe(200);
  expect((await call('putCaptionStyle', { token: u.token, body: DEFAULT_CAPTION_STYLE })).status).toBe(200);
  // A reset token, sign-in attempts and a wrong password change (rate-limit windows keyed by them).
  expect((await call('forgotPassword', { body: { email: u.email, recaptchaToken: 'test-pass' } })).status).toBe(200);
  expect((await call('login', { body: { email: u.email, password: 'not-the-password-1' }, sourceIp: ip })).status).toBe(401);
  expect((await call('changePassword', { token: u.token, body: { currentPassword: 'not-it-at-all-2', newPassword: 'violet-harbor-lantern-42' } })).status).toBe(400);
  // A passkey with its recovery codes, one of them used; a passkey ceremony left unfinished; sign-in requiring a passkey.
  const { recoveryCodes } = await registerPasskey(u.token);
  expect((await call('startPasskeyRegistration', { token: u.token })).status).toBe(200);
  expect((await call('setPasskeyRequirement', { token: u.token, body: { required: true } })).status).toBe(200);
  const step = await call<{ secondFactor: { flow: string } }>('login', { body: { email: u.email, password: u.password }, sourceIp: ip });
  expect((await call('recoveryCodeSignIn', { body: { flow: step.body.secondFactor.flow, code: recoveryCodes![0]! } })).status).toBe(200);
  expect((await call('login', { body: { email: u.email, password: u.password }, sourceIp: ip })).body).toHaveProperty('secondFactor');
  return { ...u, ip, savedId: saved.body._id, sessionId, code: share.body.code };
}

describe('delete account', () => {
  it('removes every item of the user from the table, and nothing of anyone else', async () => {
    const other = await fullAccount();
    const u = await fullAccount();
    // The export's account part names the live link and the settings.
    const exported = await call<{ liveLinks: { code: string; status: string }[]; corrections: { replacements: unknown[] }; captionStyle: unknown }>('exportAccount', { token: u.token });
    expect(exported.body.liveLinks).toEqual([expect.objectContaining({ code: u.code, status: 'live' })]);
    expect(exported.body.corrections.replacements).toEqual([{ phrase: 'a', replacement: 'b' }]);
    expect(exported.body.captionStyle).toEqual(DEFAULT_CAPTION_STYLE);

    const before = await scanAll();
    expect(itemsOf(before, u).length).toBeGreaterThan(10);
    const othersBefore = itemsOf(before, other);

    const res = await call('deleteAccount', { token: u.token, body: { password: u.password }, sourceIp: u.ip });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(res.headers['set-cookie']).toMatch(/Max-Age=0/);

    const after = await scanAll();
    expect(itemsOf(after, u)).toEqual([]);
    // The items that hold the user's id or email only as a hash: the share, its viewers, the reset token, the rate-limit windows.
    const keysOf = (items: Record<string, unknown>[]) => new Set(items.map((i) => `${i.PK as string}|${i.SK as string}`));
    const left = keysOf(after);
    expect([...left].filter((k) => k.startsWith(`LIVE#${u.code}|`))).toEqual([]);
    for (const key of userRateLimitKeys(u)) expect(left.has(`${key.PK}|${key.SK}`)).toBe(false);
    expect(after.filter((i) => i.type === 'resetToken' && i.userId === u.id)).toEqual([]);
    // Passkeys, recovery codes and passkey challenges were there, and went with the rest.
    for (const type of ['passkey', 'recoveryCodes', 'passkeyChallenge', 'passkeyChallengePointer']) {
      expect(itemsOf(before, u).filter((i) => i.type === type).length, type).toBeGreaterThan(0);
    }
    // Everything of the other user is still there.
    expect(itemsOf(after, other)).toEqual(othersBefore);
    expect(after.some((i) => i.PK === `LIVE#${other.code}`)).toBe(true);

    // The session ended; the account no longer signs in; the email is free again.
    expect((await call('getMe', { token: u.token })).status).toBe(401);
    expect((await call('login', { body: { email: u.email, password: u.password }, sourceIp: freshIp() })).status).toBe(401);
    expect((await registerUser({ email: u.email })).email).toBe(u.email);

    const mail = (await outbox()).filter((m) => m.to === u.email && m.subject === 'Your account was deleted').at(-1)!;
    expect(mail.text).toContain('Hi Ana Test');
  }, HEAVY_MS);

  it('needs the right password: a wrong one is 400 and changes nothing', async () => {
    const u = await fullAccount();
    const before = itemsOf(await scanAll(), u).filter((i) => i.type !== 'rateLimit');
    const res = await call('deleteAccount', { token: u.token, body: { password: 'wrong-password-9' }, sourceIp: freshIp() });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'wrong_current_password' });
    const after = itemsOf(await scanAll(), u).filter((i) => i.type !== 'rateLimit');
    expect(after).toEqual(before);
    expect((await call('getMe', { token: u.token })).status).toBe(200);
  });

  it('a passkey of the account stands in for the password; another user\'s, or a replayed answer, is refused', async () => {
    const u = await registerUser();
    const other = await registerUser();
    const mine = await registerPasskey(u.token);
    const theirs = await registerPasskey(other.token);
    const ceremony = async () => (await call<{ flow: string; options: { challenge: string } }>('startPasskeySignIn')).body;
    const del = (flow: string, credential: unknown) => call('deleteAccount', { token: u.token, body: { passkey: { flow, credential } } });

    let c = await ceremony();
    const refused = await del(c.flow, assert(theirs.passkey, c.options, ORIGIN));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'passkey_refused', error: expect.any(String) });
    expect((await call('getMe', { token: u.token })).status).toBe(200);
    c = await ceremony();
    const answer = assert(mine.passkey, c.options, ORIGIN);
    expect((await del(c.flow, answer)).status).toBe(200);
    expect(itemsOf(await scanAll(), u)).toEqual([]);
    expect((await del(c.flow, answer)).status).toBe(401);
  });

  it('refuses without a session or a password, and mails in the user language', async () => {
    expect((await call('deleteAccount', { body: { password: 'x' } })).status).toBe(401);
    const u = await registerUser();
    expect((await call('deleteAccount', { token: u.token, body: {} })).status).toBe(400);
    expect((await call('updateMe', { token: u.token, body: { language: 'pt' } })).status).toBe(200);
    expect((await call('deleteAccount', { token: u.token, body: { password: u.password } })).status).toBe(200);
    expect((await outbox()).filter((m) => m.to === u.email).map((m) => m.subject)).toContain('Sua conta foi excluída');
  });
});

/** Reads a whole export as the web app does: the account, then each kind's pages, then each text's pages. */
async function exportAll(token: string) {
  const account = await call<Record<string, unknown>>('exportAccount', { token });
  expect(account.status).toBe(200);
  const texts = new Map<string, { text: string; segments: ExportTextResponse['segments']; version: number; requests: number; largestPage: number }>();
  type Listed = { _id: string; createdAt: string };
  const lists: Record<string, Listed[]> = {};
  for (const kind of ['saved', 'automatic'] as const) {
    const list: Listed[] = [];
    lists[kind] = list;
    let cursor: string | null | undefined;
    do {
      const page: { status: number; body: ExportListResponse } = await call<ExportListResponse>('exportTranscriptions', { token, query: { kind, ...(cursor ? { cursor } : {}) } });
      expect(page.status).toBe(200);
      list.push(...(page.body.items as Listed[]));
      cursor = page.body.cursor;
    } while (cursor);
    for (const item of list) {
      let from: number | null = 0;
      let version: number | undefined;
      const parts: string[] = [];
      const segments: ExportTextResponse['segments'] = [];
      let requests = 0;
      let largestPage = 0;
      while (from !== null) {
        const page: { status: number; body: ExportTextResponse } = await call<ExportTextResponse>('exportTranscriptionText', {
          token,
          params: { kind, id: item._id },
          query: { from: String(from), ...(version === undefined ? {} : { version: String(version) }) },
        });
        expect(page.status).toBe(200);
        expect(page.body.from).toBe(from);
        requests++;
        largestPage = Math.max(largestPage, page.body.text.length);
        version = page.body.version;
        parts.push(page.body.text);
        segments.push(...page.body.segments);
        from = page.body.next;
      }
      texts.set(`${kind}/${item._id}`, { text: parts.join(''), segments, version: version!, requests, largestPage });
    }
  }
  return { account: account.body, lists, texts };
}

describe('export', () => {
  it('an account with a 1.3 MB transcription: every page in bounds, and what comes out is what was saved', async () => {
    const u = await proUser();
    // 1.3 MB of UTF-8 text with accents and CJK, in sentences, with a segment each.
    const sentence = (i: number) => `Frase número ${i}: ação, coração e 你好世界 — ok. `;
    const sentences: string[] = [];
    let bytes = 0;
    for (let i = 0; bytes < 1_300_000; i++) {
      sentences.push(sentence(i));
      bytes += Buffer.byteLength(sentence(i));
    }
    const fullTranscript = sentences.join('');
    const segments = sentences.slice(0, 15_000).map((text, i) => ({ text, startMs: i * 1000, endMs: i * 1000 + 900 }));
    const saved = await call<{ _id: string }>('saveTranscription', { token: u.token, body: { title: 'Longa', duration: 3600, fullTranscript, segments } });
    expect(saved.status).toBe(200);
    for (let i = 0; i < 3; i++) {
      expect((await call('saveTranscription', { token: u.token, body: { title: `Curta ${i}`, duration: 1, fullTranscript: `texto ${i}` } })).status).toBe(200);
    }
    const session = await call<{ sessionId: string }>('autosaveSessionId', { token: u.token });
    await call('autosaveSave', { token: u.token, body: { sessionId: session.body.sessionId, offset: 0, text: 'automática', segments: [], duration: 2, language: 'pt-BR' } });

    const started = performance.now();
    const out = await exportAll(u.token);
    const seconds = (performance.now() - started) / 1000;
    expect(out.account).toMatchObject({ profile: { id: u.id, email: u.email }, billing: { plan: 'pro' } });
    expect(out.lists.saved!.map((t) => t._id)).toContain(saved.body._id);
    expect(out.lists.saved).toHaveLength(4);
    expect(out.lists.automatic).toHaveLength(1);

    const long = out.texts.get(`saved/${saved.body._id}`)!;
    expect(long.text).toBe(fullTranscript);
    expect(long.requests).toBeGreaterThan(1);
    expect(long.largestPage).toBeLessThanOrEqual(EXPORT_TEXT_PAGE_CHARS + 16_000);
    const detail = await call<{ fullTranscript: string; segments: { text: string; startMs: number; endMs: number }[] }>('getTranscription', {
      token: u.token,
      params: { id: saved.body._id },
    });
    expect(detail.body.fullTranscript).toBe(fullTranscript);
    expect(long.segments.map(([startMs, endMs, at, len]) => ({ text: long.text.slice(at, at + len), startMs, endMs }))).toEqual(
      detail.body.segments.map(({ text, startMs, endMs }) => ({ text, startMs, endMs })),
    );
    expect(out.texts.get(`automatic/${session.body.sessionId}`)!.text).toBe('automática');
    console.info(`export of a ${(bytes / 1e6).toFixed(2)} MB transcription and 4 more: ${seconds.toFixed(2)} s, ${long.requests} text pages`);
  }, HEAVY_MS);

  it('pages the list of many transcriptions, and answers another version as a conflict', async () => {
    const u = await proUser();
    for (let i = 0; i < 105; i++) {
      expect((await call('saveTranscription', { token: u.token, body: { title: `T ${i}`, duration: 1, fullTranscript: `texto ${i}` } })).status).toBe(200);
    }
    const first = await call<ExportListResponse>('exportTranscriptions', { token: u.token, query: { kind: 'saved' } });
    expect(first.body.items).toHaveLength(100);
    expect(first.body.cursor).toBe(first.body.items.at(-1)!._id);
    const second = await call<ExportListResponse>('exportTranscriptions', { token: u.token, query: { kind: 'saved', cursor: first.body.cursor! } });
    expect(second.body.items).toHaveLength(5);
    expect(second.body.cursor).toBeNull();
    const ids = [...first.body.items, ...second.body.items].map((t) => t._id);
    expect(ids).toEqual([...ids].sort());
    const id = ids[0]!;
    const stale = await call('exportTranscriptionText', { token: u.token, params: { kind: 'saved', id }, query: { from: '0', version: '3' } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'version_conflict', version: 0 });
  }, HEAVY_MS);

  it("serves only the caller's data, and refuses bad input", async () => {
    const owner = await proUser();
    const saved = await call<{ _id: string }>('saveTranscription', { token: owner.token, body: { title: 'Minha', duration: 1, fullTranscript: 'segredo' } });
    const other = await registerUser();
    expect((await call('exportTranscriptionText', { token: other.token, params: { kind: 'saved', id: saved.body._id } })).status).toBe(404);
    const theirs = await call<ExportListResponse>('exportTranscriptions', { token: other.token, query: { kind: 'saved' } });
    expect(theirs.body.items).toEqual([]);
    expect((await call('exportTranscriptions', { token: other.token, query: { kind: 'mine' } })).status).toBe(400);
    // A path that names no transcription is a 404, as on every id-taking route.
    expect((await call('exportTranscriptionText', { token: other.token, params: { kind: 'saved', id: 'nope' } })).status).toBe(404);
    expect((await call('exportTranscriptionText', { token: other.token, params: { kind: 'saved', id: saved.body._id }, query: { from: '-1' } })).status).toBe(400);
    expect((await call('exportAccount')).status).toBe(401);
  });
});
