import { describe, expect, it } from 'vitest';
import { PASSKEY_REAUTH_SECONDS, RECOVERY_CODE_ATTEMPT_LIMIT, RECOVERY_CODE_COUNT } from '@app/shared/constants';
import { setSiteSettings } from '../src/db/site-settings.ts';
import { getUser } from '../src/db/users.ts';
import { signToken } from '../src/lib/auth.ts';
import { call, outbox, registerUser, sessionCookieOf } from './call.ts';
import { assert, createPasskey, ORIGIN, registerPasskey } from './soft-authenticator.ts';

let ipSeq = 0;
const freshIp = () => `203.0.113.${++ipSeq}`;

type Ceremony = { flow: string; options: { challenge: string; rp: { id: string }; user: { id: string } } };
type List = { passkeys: { id: string; name: string; lastUsedAt: string | null; backedUp: boolean }[]; recoveryCodesLeft: number; required: boolean };

/** A session of the user that signed in `ageSeconds` ago (a token of its own, as a sign-in then would have made). */
async function oldSession(userId: string, ageSeconds: number): Promise<string> {
  const user = (await getUser(userId))!;
  const now = Math.floor(Date.now() / 1000);
  const { token } = await signToken({ user, sid: `old-${userId}`, authTime: now - ageSeconds }, now);
  return token;
}

const list = async (token: string) => (await call<List>('listPasskeys', { token })).body;

async function signInOptions(): Promise<Ceremony> {
  const res = await call<Ceremony>('startPasskeySignIn');
  expect(res.status).toBe(200);
  return res.body;
}

describe('adding a passkey', () => {
  it('a recent sign-in adds one: listed, the first brings recovery codes once, a notice is mailed', async () => {
    const u = await registerUser();
    const options = await call<Ceremony>('startPasskeyRegistration', { token: u.token });
    expect(options.status).toBe(200);
    expect(options.body.options.rp.id).toBe('localhost');
    expect(Buffer.from(options.body.options.user.id, 'base64url').toString()).toBe(u.id);
    const made = createPasskey(options.body.options, ORIGIN);
    const added = await call<{ passkey: { id: string; name: string }; recoveryCodes: string[] }>('addPasskey', {
      token: u.token,
      body: { flow: options.body.flow, name: '  Work laptop ', credential: made.credential },
    });
    expect(added.status).toBe(200);
    expect(added.body.passkey).toMatchObject({ name: 'Work laptop', lastUsedAt: null, backedUp: true });
    expect(added.body.recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(added.body.recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of added.body.recoveryCodes) expect(code).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
    expect(await list(u.token)).toEqual({
      passkeys: [expect.objectContaining({ id: added.body.passkey.id, name: 'Work laptop', lastUsedAt: null })],
      recoveryCodesLeft: RECOVERY_CODE_COUNT,
      required: false,
    });
    // A second passkey brings no new codes.
    const second = await registerPasskey(u.token, 'Phone');
    expect(second.recoveryCodes).toBeNull();
    expect((await list(u.token)).passkeys.map((p) => p.name)).toEqual(['Work laptop', 'Phone']);
    const mail = (await outbox()).filter((m) => m.to === u.email && m.subject === 'A passkey was added to your account');
    expect(mail.map((m) => m.text.match(/"(.*)"/)?.[1])).toEqual(['Work laptop', 'Phone']);
  });

  it('an older sign-in needs the current password: none is 403, a wrong one 400, the right one goes on', async () => {
    const u = await registerUser();
    const token = await oldSession(u.id, PASSKEY_REAUTH_SECONDS + 60);
    const none = await call('startPasskeyRegistration', { token });
    expect(none.status).toBe(403);
    expect(none.body).toMatchObject({ code: 'reauth_required', error: expect.any(String) });
    const wrong = await call('startPasskeyRegistration', { token, body: { currentPassword: 'not-the-password' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'wrong_current_password' });
    expect((await call('startPasskeyRegistration', { token, body: { currentPassword: u.password } })).status).toBe(200);
    expect((await list(token)).passkeys).toEqual([]);
  });

  it('refuses a replayed, another session\'s, a wrong challenge\'s or a malformed answer, storing nothing', async () => {
    const u = await registerUser();
    const options = await call<Ceremony>('startPasskeyRegistration', { token: u.token });
    const made = createPasskey(options.body.options, ORIGIN);
    const add = (token: string, body: Record<string, unknown>) => call('addPasskey', { token, body });
    // Another session of the same user cannot finish this session's ceremony (and spends it).
    const other = await oldSession(u.id, 60);
    const stolen = await add(other, { flow: options.body.flow, name: 'x', credential: made.credential });
    expect(stolen.status).toBe(400);
    expect(stolen.body).toMatchObject({ code: 'passkey_challenge_invalid', error: expect.any(String) });
    expect((await add(u.token, { flow: options.body.flow, name: 'x', credential: made.credential })).status).toBe(400);

    // An answer to another challenge.
    const fresh = await call<Ceremony>('startPasskeyRegistration', { token: u.token });
    const wrongChallenge = createPasskey({ ...fresh.body.options, challenge: options.body.options.challenge }, ORIGIN);
    const res = await add(u.token, { flow: fresh.body.flow, name: 'x', credential: wrongChallenge.credential });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'passkey_invalid' });
    // Another origin's answer.
    const third = await call<Ceremony>('startPasskeyRegistration', { token: u.token });
    const phished = createPasskey(third.body.options, 'https://evil.example');
    expect((await add(u.token, { flow: third.body.flow, name: 'x', credential: phished.credential })).body).toMatchObject({ code: 'passkey_invalid' });

    // Bad bodies: 400 {error}.
    for (const body of [{}, { flow: 'short', name: 'x', credential: made.credential }, { flow: third.body.flow, name: '', credential: made.credential }, { flow: third.body.flow, name: 'x', credential: { id: 'x' } }]) {
      const bad = await add(u.token, body);
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: expect.any(String) });
    }
    const notJson = await call('addPasskey', { token: u.token, rawBody: '{"flow":' });
    expect(notJson.status).toBe(400);
    expect(notJson.body).toMatchObject({ error: expect.any(String), code: 'invalid_json' });
    const badPassword = await call('startPasskeyRegistration', { token: u.token, body: { currentPassword: '' } });
    expect(badPassword.status).toBe(400);
    expect(badPassword.body).toMatchObject({ error: expect.any(String), code: 'invalid_input' });
    expect((await call('addPasskey', { body: { flow: third.body.flow, name: 'x', credential: made.credential } })).status).toBe(401);
    expect((await call('startPasskeyRegistration', {})).status).toBe(401);
    expect(await list(u.token)).toMatchObject({ passkeys: [], recoveryCodesLeft: 0 });
  });
});

describe('passwordless sign-in', () => {
  it('a passkey signs in with the same session cookie; its use is recorded; a replay is refused', async () => {
    const u = await registerUser();
    const { passkey, id } = await registerPasskey(u.token);
    const ceremony = await signInOptions();
    const credential = assert(passkey, ceremony.options, ORIGIN);
    const res = await call<{ user: { id: string } }>('passkeySignIn', { body: { flow: ceremony.flow, credential } });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(u.id);
    const token = sessionCookieOf(res)!;
    expect((await call('getMe', { token })).status).toBe(200);
    expect((await list(token)).passkeys).toEqual([expect.objectContaining({ id, lastUsedAt: expect.any(String), backedUp: true })]);

    // The same answer again: its ceremony is spent.
    const replay = await call('passkeySignIn', { body: { flow: ceremony.flow, credential } });
    expect(replay.status).toBe(400);
    expect(replay.body).toMatchObject({ code: 'passkey_challenge_invalid' });
    // The same answer to a new ceremony: not a signature of its challenge.
    const next = await signInOptions();
    expect((await call('passkeySignIn', { body: { flow: next.flow, credential } })).body).toMatchObject({ code: 'passkey_refused' });
    // A counter that went back (a cloned authenticator) is refused too.
    const later = await signInOptions();
    passkey.counter = 0;
    expect((await call('passkeySignIn', { body: { flow: later.flow, credential: assert(passkey, later.options, ORIGIN) } })).status).toBe(401);
  });

  it('refuses a passkey no account has, one named for another user, another origin\'s and a malformed answer', async () => {
    const a = await registerUser();
    const b = await registerUser();
    const pa = await registerPasskey(a.token);
    await registerPasskey(b.token);
    const stranger = createPasskey({ challenge: 'x', rp: { id: 'localhost' }, user: { id: Buffer.from(a.id).toString('base64url') } }, ORIGIN).passkey;
    let c = await signInOptions();
    expect((await call('passkeySignIn', { body: { flow: c.flow, credential: assert(stranger, c.options, ORIGIN) } })).status).toBe(401);
    c = await signInOptions();
    // A's passkey, its answer claiming to be B's.
    const claimed = assert(pa.passkey, c.options, ORIGIN);
    claimed.response.userHandle = Buffer.from(b.id).toString('base64url');
    expect((await call('passkeySignIn', { body: { flow: c.flow, credential: claimed } })).status).toBe(401);
    c = await signInOptions();
    expect((await call('passkeySignIn', { body: { flow: c.flow, credential: assert(pa.passkey, c.options, 'https://evil.example') } })).status).toBe(401);
    c = await signInOptions();
    // No user handle: a passwordless ceremony cannot tell whose it is.
    expect((await call('passkeySignIn', { body: { flow: c.flow, credential: assert(pa.passkey, c.options, ORIGIN, { withUserHandle: false }) } })).status).toBe(401);
    const answer = assert(pa.passkey, c.options, ORIGIN);
    for (const body of [{}, { flow: c.flow }, { credential: answer }, { flow: 'short', credential: answer }, { flow: c.flow, credential: { type: 'public-key' } }, { flow: c.flow, code: 'AAAA-BBBB-CCCC-DDDD' }]) {
      const bad = await call('passkeySignIn', { body });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: expect.any(String) });
    }
  });
});

describe('removing a passkey', () => {
  it('removes only the caller\'s: another user\'s id is 404; the last takes the second factor and the codes with it', async () => {
    const a = await registerUser();
    const b = await registerUser();
    const pa = await registerPasskey(a.token);
    const pb = await registerPasskey(b.token);
    const theirs = await call('removePasskey', { token: a.token, params: { id: pb.id } });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({ error: expect.any(String) });
    for (const id of ['not-an-id', 'x'.repeat(101)]) {
      const none = await call('removePasskey', { token: a.token, params: { id } });
      expect(none.status, id).toBe(404);
      expect(none.body, id).toMatchObject({ error: expect.any(String) });
    }
    expect((await call('removePasskey', { params: { id: pa.id } })).status).toBe(401);
    expect((await list(b.token)).passkeys).toHaveLength(1);

    expect((await call('setPasskeyRequirement', { token: a.token, body: { required: true } })).status).toBe(200);
    expect((await call('removePasskey', { token: a.token, params: { id: pa.id } })).status).toBe(200);
    expect(await list(a.token)).toEqual({ passkeys: [], recoveryCodesLeft: 0, required: false });
    expect((await call('removePasskey', { token: a.token, params: { id: pa.id } })).status).toBe(404);
    // The removed passkey signs in no more; the password alone signs in again.
    const c = await signInOptions();
    expect((await call('passkeySignIn', { body: { flow: c.flow, credential: assert(pa.passkey, c.options, ORIGIN) } })).status).toBe(401);
    const login = await call('login', { body: { email: a.email, password: a.password }, sourceIp: freshIp() });
    expect(login.body).toHaveProperty('user');
    expect((await outbox()).filter((m) => m.to === a.email).map((m) => m.subject)).toContain('A passkey was removed from your account');
  });
});

describe('passkey as a second factor', () => {
  it('with it on, the password alone gives no session; a passkey of that user finishes the sign-in', async () => {
    const u = await registerUser();
    const other = await registerUser();
    const { passkey } = await registerPasskey(u.token);
    const theirs = await registerPasskey(other.token);
    expect((await call('setPasskeyRequirement', { token: u.token, body: { required: true } })).body).toEqual({ required: true });
    expect((await list(u.token)).required).toBe(true);

    const login = await call<{ secondFactor: Ceremony }>('login', { body: { email: u.email, password: u.password }, sourceIp: freshIp() });
    expect(login.status).toBe(200);
    expect(login.body).not.toHaveProperty('user');
    expect(login.headers['set-cookie']).toBeUndefined();
    const step = login.body.secondFactor;
    // Another user's passkey cannot finish this user's sign-in (and the step is spent).
    expect((await call('passkeySignIn', { body: { flow: step.flow, credential: assert(theirs.passkey, step.options, ORIGIN) } })).status).toBe(401);

    const again = await call<{ secondFactor: Ceremony }>('login', { body: { email: u.email, password: u.password }, sourceIp: freshIp() });
    const done = await call<{ user: { id: string } }>('passkeySignIn', { body: { flow: again.body.secondFactor.flow, credential: assert(passkey, again.body.secondFactor.options, ORIGIN) } });
    expect(done.status).toBe(200);
    expect(done.body.user.id).toBe(u.id);
    expect(sessionCookieOf(done)).toBeTruthy();
    // A wrong password is still just a wrong password.
    expect((await call('login', { body: { email: u.email, password: 'not-the-password' }, sourceIp: freshIp() })).status).toBe(401);
  });

  it('needs a passkey to turn on, and a recent sign-in or the password to change', async () => {
    const u = await registerUser();
    const on = await call('setPasskeyRequirement', { token: u.token, body: { required: true } });
    expect(on.status).toBe(409);
    expect(on.body).toMatchObject({ code: 'no_passkeys' });
    await registerPasskey(u.token);
    const token = await oldSession(u.id, PASSKEY_REAUTH_SECONDS + 60);
    expect((await call('setPasskeyRequirement', { token, body: { required: true } })).body).toMatchObject({ code: 'reauth_required' });
    expect((await call('setPasskeyRequirement', { token, body: { required: true, currentPassword: u.password } })).status).toBe(200);
    for (const body of [{ required: 'yes' }, {}, { required: false, currentPassword: '' }]) {
      const bad = await call('setPasskeyRequirement', { token, body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body).toMatchObject({ error: expect.any(String), code: 'invalid_input' });
    }
    expect((await list(u.token)).required).toBe(true);
  });
});

describe('recovery codes', () => {
  it('a code finishes a second step once; its use is recorded; new codes end the old ones', async () => {
    const u = await registerUser();
    const { recoveryCodes } = await registerPasskey(u.token);
    const [first, second] = recoveryCodes!;
    await call('setPasskeyRequirement', { token: u.token, body: { required: true } });
    const step = async () => (await call<{ secondFactor: Ceremony }>('login', { body: { email: u.email, password: u.password }, sourceIp: freshIp() })).body.secondFactor.flow;

    const flow = await step();
    const wrong = await call('recoveryCodeSignIn', { body: { flow, code: 'AAAA-BBBB-CCCC-DDDD' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'recovery_code_invalid', error: expect.any(String) });
    // A wrong code leaves the step open; the right one, typed loosely, finishes it.
    const res = await call<{ user: { id: string } }>('recoveryCodeSignIn', { body: { flow, code: ` ${first!.toLowerCase().replace(/-/g, ' ')} ` } });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(u.id);
    const token = sessionCookieOf(res)!;
    expect((await call('getMe', { token })).status).toBe(200);
    expect((await list(token)).recoveryCodesLeft).toBe(RECOVERY_CODE_COUNT - 1);
    // The step is spent; the code is spent.
    expect((await call('recoveryCodeSignIn', { body: { flow, code: second! } })).body).toMatchObject({ code: 'passkey_challenge_invalid' });
    expect((await call('recoveryCodeSignIn', { body: { flow: await step(), code: first! } })).body).toMatchObject({ code: 'recovery_code_invalid' });

    // New codes: shown once, all unused; the old ones stop working.
    const fresh = await call<{ recoveryCodes: string[] }>('createRecoveryCodes', { token: u.token });
    expect(fresh.body.recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect((await list(u.token)).recoveryCodesLeft).toBe(RECOVERY_CODE_COUNT);
    expect((await call('recoveryCodeSignIn', { body: { flow: await step(), code: second! } })).status).toBe(400);
    expect((await call('recoveryCodeSignIn', { body: { flow: await step(), code: fresh.body.recoveryCodes[0]! } })).status).toBe(200);
  });

  it('are counted per account, need a second step of a password sign-in, and come only with a passkey', async () => {
    const u = await registerUser();
    expect((await call('createRecoveryCodes', { token: u.token })).body).toMatchObject({ code: 'no_passkeys' });
    const { recoveryCodes } = await registerPasskey(u.token);
    const old = await oldSession(u.id, PASSKEY_REAUTH_SECONDS + 60);
    expect((await call('createRecoveryCodes', { token: old })).status).toBe(403);
    expect((await call('createRecoveryCodes', { token: old, body: { currentPassword: 'nope-nope' } })).status).toBe(400);
    // A passwordless ceremony's flow is no second step.
    const passwordless = await signInOptions();
    expect((await call('recoveryCodeSignIn', { body: { flow: passwordless.flow, code: recoveryCodes![0]! } })).body).toMatchObject({ code: 'passkey_challenge_invalid' });
    await call('setPasskeyRequirement', { token: u.token, body: { required: true } });
    const login = await call<{ secondFactor: Ceremony }>('login', { body: { email: u.email, password: u.password }, sourceIp: freshIp() });
    const flow = login.body.secondFactor.flow;
    for (let i = 0; i < RECOVERY_CODE_ATTEMPT_LIMIT; i++) expect((await call('recoveryCodeSignIn', { body: { flow, code: `WRONG-${i}` } })).status).toBe(400);
    const limited = await call('recoveryCodeSignIn', { body: { flow, code: recoveryCodes![0]! } });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'recovery_code_rate_limited' });
    for (const body of [{ flow: 'x', code: 'y' }, {}, { flow }, { flow, code: '  ' }, { flow, code: 'A'.repeat(41) }, { flow, credential: {} }]) {
      const bad = await call('recoveryCodeSignIn', { body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body).toMatchObject({ error: expect.any(String), code: 'invalid_input' });
    }
    expect((await call('createRecoveryCodes', { token: old, body: { currentPassword: u.password } })).status).toBe(200);
  });
});

describe('the passkey routes, one per action', () => {
  it('refuses every change another site starts (Sec-Fetch-Site, Origin), changing nothing; the list is a read', async () => {
    const u = await registerUser();
    const { id } = await registerPasskey(u.token);
    const cross = { 'sec-fetch-site': 'cross-site' };
    const changes = [
      call('startPasskeySignIn', { headers: cross }),
      call('passkeySignIn', { headers: { origin: 'https://evil.example' }, body: {} }),
      call('recoveryCodeSignIn', { headers: cross, body: {} }),
      call('startPasskeyRegistration', { cookie: u.token, headers: cross }),
      call('addPasskey', { cookie: u.token, headers: cross, body: {} }),
      call('removePasskey', { cookie: u.token, headers: { origin: 'null' }, params: { id } }),
      call('createRecoveryCodes', { cookie: u.token, headers: cross }),
      call('setPasskeyRequirement', { cookie: u.token, headers: cross, body: { required: true } }),
    ];
    for (const res of await Promise.all(changes)) expect(res).toMatchObject({ status: 403, body: { code: 'cross_site', error: expect.any(String) } });
    const read = await call<List>('listPasskeys', { cookie: u.token, headers: cross });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ passkeys: [expect.objectContaining({ id })], recoveryCodesLeft: RECOVERY_CODE_COUNT, required: false });
  });

  it('lists the passkeys while maintenance mode is on (a GET that writes nothing); every change waits (503)', async () => {
    const u = await registerUser();
    const { id, passkey } = await registerPasskey(u.token, 'Kept');
    const ceremony = await signInOptions();
    await setSiteSettings({ maintenanceMode: true });
    try {
      const res = await call<List>('listPasskeys', { token: u.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ passkeys: [expect.objectContaining({ id, name: 'Kept' })], recoveryCodesLeft: RECOVERY_CODE_COUNT, required: false });
      const refused = [
        await call('startPasskeyRegistration', { token: u.token }),
        await call('removePasskey', { token: u.token, params: { id } }),
        await call('createRecoveryCodes', { token: u.token }),
        await call('setPasskeyRequirement', { token: u.token, body: { required: true } }),
        await call('passkeySignIn', { body: { flow: ceremony.flow, credential: assert(passkey, ceremony.options, ORIGIN) } }),
      ];
      for (const r of refused) expect(r).toMatchObject({ status: 503, body: { code: 'maintenance' } });
    } finally {
      await setSiteSettings({ maintenanceMode: false });
    }
    expect(await list(u.token)).toEqual({ passkeys: [expect.objectContaining({ id })], recoveryCodesLeft: RECOVERY_CODE_COUNT, required: false });
    // Nothing was spent: the ceremony started before maintenance still signs in.
    const signed = await call('passkeySignIn', { body: { flow: ceremony.flow, credential: assert(passkey, ceremony.options, ORIGIN) } });
    expect(signed.status).toBe(200);
  });
});
