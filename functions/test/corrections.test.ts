import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { CORRECTION_TEXT_MAX, CORRECTIONS_MAX } from '@app/shared/constants';
import { DEFAULT_CORRECTIONS } from '@app/shared/constants';
import type { CorrectionSettings } from '@app/shared/schemas/corrections';
import { db, tableName } from '../src/db/client.ts';
import { keys } from '../src/db/keys.ts';
import { setPlan } from '../src/db/users.ts';
import { call, registerUser } from './call.ts';

const settings = (patch: Partial<CorrectionSettings> = {}): CorrectionSettings => ({
  replacements: [
    { phrase: 'gonna', replacement: 'going to' },
    { phrase: 'new york', replacement: 'New York' },
  ],
  profanity: 'mask',
  shareProfanity: 'hide',
  voiceCommands: true,
  paragraphSilence: 3,
  ...patch,
});

const get = (token: string) => call<CorrectionSettings & { error?: string }>('getCorrections', { token });
const put = (token: string, body: unknown) => call<CorrectionSettings & { error?: string }>('putCorrections', { token, body });

describe('text corrections on the account', () => {
  it('answers the defaults until saved, then what was saved, in its own item beside the user', async () => {
    const u = await registerUser();
    expect((await get(u.token)).body).toEqual(DEFAULT_CORRECTIONS);

    const saved = await put(u.token, settings({ replacements: [{ phrase: '  gonna ', replacement: ' going to ' }] }));
    expect(saved.status).toBe(200);
    expect(saved.body.replacements).toEqual([{ phrase: 'gonna', replacement: 'going to' }]);
    expect((await get(u.token)).body).toEqual(settings({ replacements: [{ phrase: 'gonna', replacement: 'going to' }] }));

    const item = await db().send(new GetCommand({ TableName: tableName(), Key: keys.corrections(u.id) }));
    expect(item.Item).toMatchObject({ type: 'corrections', profanity: 'mask', paragraphSilence: 3 });
    const profile = await db().send(new GetCommand({ TableName: tableName(), Key: keys.user(u.id) }));
    expect(profile.Item).not.toHaveProperty('replacements');

    // Paragraphs off, an empty replacement (the phrase is removed from the text).
    const off = await put(u.token, settings({ paragraphSilence: null, replacements: [{ phrase: 'um', replacement: '' }] }));
    expect(off.status).toBe(200);
    expect((await get(u.token)).body).toMatchObject({ paragraphSilence: null, replacements: [{ phrase: 'um', replacement: '' }] });
  });

  it('takes CORRECTIONS_MAX replacements and refuses one more, changing nothing', async () => {
    const u = await registerUser();
    const list = (n: number) => Array.from({ length: n }, (_, i) => ({ phrase: `word ${i}`, replacement: `W${i}` }));
    expect((await put(u.token, settings({ replacements: list(CORRECTIONS_MAX) }))).status).toBe(200);
    const refused = await put(u.token, settings({ replacements: list(CORRECTIONS_MAX + 1), profanity: 'off' }));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(`At most ${CORRECTIONS_MAX} replacements`);
    const kept = (await get(u.token)).body;
    expect(kept.replacements).toHaveLength(CORRECTIONS_MAX);
    expect(kept.profanity).toBe('mask');
  });

  it.each([
    ['an empty phrase', settings({ replacements: [{ phrase: '   ', replacement: 'x' }] }), /needs a phrase/],
    ['a phrase too long', settings({ replacements: [{ phrase: 'a'.repeat(CORRECTION_TEXT_MAX + 1), replacement: 'x' }] }), /phrase must be at most/],
    ['a replacement too long', settings({ replacements: [{ phrase: 'a', replacement: 'b'.repeat(CORRECTION_TEXT_MAX + 1) }] }), /replacement must be at most/],
    ['an unknown profanity mode', { ...settings(), profanity: 'stars' }, /profanity/],
    ['a silence below the range', settings({ paragraphSilence: 0 }), /at least 1 s/],
    ['a silence above the range', settings({ paragraphSilence: 11 }), /at most 10 s/],
    ['a fractional silence', settings({ paragraphSilence: 1.5 }), /whole number/],
    ['a missing field', { replacements: [], profanity: 'off' }, /./],
    ['an unknown field', { ...settings(), extra: true }, /./],
    ['an extra field in a row', settings({ replacements: [{ phrase: 'a', replacement: 'b', x: 1 } as never] }), /./],
    ['not a list', { ...settings(), replacements: 'gonna=going to' }, /./],
  ])('refuses %s with 400 and keeps what was saved', async (_, body, message) => {
    const u = await registerUser();
    await put(u.token, settings());
    const res = await put(u.token, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
    expect((await get(u.token)).body).toEqual(settings());
  });

  it('refuses a body that is not JSON with 400', async () => {
    const u = await registerUser();
    const res = await call<{ error: string }>('putCorrections', { token: u.token, rawBody: '{"replacements":' });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual(expect.any(String));
  });

  it('needs a session, and each user reads and writes only their own', async () => {
    expect((await call('getCorrections')).status).toBe(401);
    expect((await call('putCorrections', { body: settings() })).status).toBe(401);
    const a = await registerUser();
    const b = await registerUser();
    await put(a.token, settings({ replacements: [{ phrase: 'secret', replacement: 'A only' }] }));
    expect((await get(b.token)).body).toEqual(DEFAULT_CORRECTIONS);
    await put(b.token, settings({ profanity: 'off', replacements: [] }));
    expect((await get(a.token)).body.replacements).toEqual([{ phrase: 'secret', replacement: 'A only' }]);
  });

  it('is there for every plan', async () => {
    const u = await registerUser();
    await setPlan(u.id, 'pro', null);
    expect((await put(u.token, settings())).status).toBe(200);
    expect((await get(u.token)).body).toEqual(settings());
  });
});
