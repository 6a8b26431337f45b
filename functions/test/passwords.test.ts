import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHANGE_PASSWORD_ATTEMPT_LIMIT } from '@app/shared/constants';
import { getUser, updateProfile } from '../src/db/users.ts';
import { isWeakPassword } from '../src/domain/password-strength.ts';
import { resetEnv } from '../src/lib/env.ts';
import { HttpError } from '../src/lib/errors.ts';
import { assertAcceptablePassword } from '../src/lib/password-policy.ts';
import { isBreachedPassword } from '../src/lib/pwned-passwords.ts';
import { FAKE_BREACHED_PASSWORDS } from '../src/local/pwned-passwords-fake.ts';
import { call, outbox, registerUser, sessionCookieOf, uniqueEmail } from './call.ts';

const BREACHED = FAKE_BREACHED_PASSWORDS[0]!;
const STRONG = 'violet-harbor-lantern-42';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  resetEnv();
});

/** The code of the 400 the policy throws, or 'accepted'. */
async function verdict(password: string, userInputs: string[] = []): Promise<string> {
  try {
    await assertAcceptablePassword(password, userInputs);
    return 'accepted';
  } catch (err) {
    if (err instanceof HttpError && err.status === 400) return err.extra.code!;
    throw err;
  }
}

describe('the password checker', () => {
  it('refuses common passwords and simple patterns of the common dictionaries, far beyond a short list', async () => {
    // From zxcvbn-ts's common password list, keyboard walks and repeats; none was on the old hand-written list.
    for (const password of ['password1', '12345678', 'qwertyuiop', 'monkey123', 'dragon2024', 'aaaaaaaaaa', 'senha12345', 'asdfasdf']) {
      expect(await verdict(password), password).toBe('password_weak');
    }
  });

  it("refuses a password built on the user's own name or email", async () => {
    expect(await isWeakPassword('bartholomew2024')).toBe(false);
    expect(await verdict('bartholomew2024', ['Bartholomew Silva', 'bart@example.com'])).toBe('password_weak');
  });

  it('accepts a strong password that no breach holds', async () => {
    expect(await verdict(STRONG)).toBe('accepted');
    expect(await isBreachedPassword(STRONG)).toBe(false);
  });

  it('refuses a breached password, sending the service only the first 5 characters of its SHA-1', async () => {
    expect(await isWeakPassword(BREACHED)).toBe(false);
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    expect(await verdict(BREACHED)).toBe('password_breached');
    const url = String(fetchSpy.mock.calls[0]![0]);
    const sha1 = createHash('sha1').update(BREACHED).digest('hex').toUpperCase();
    expect(url).toBe(`${process.env.PWNED_PASSWORDS_URL}/range/${sha1.slice(0, 5)}`);
    expect(JSON.stringify(fetchSpy.mock.calls)).not.toContain(sha1.slice(5));
    expect(JSON.stringify(fetchSpy.mock.calls)).not.toContain(BREACHED);
  });

  it('accepts (and logs) when the service is unreachable or too slow', async () => {
    vi.stubEnv('LOG_LEVEL', 'warn');
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
    // A closed port: refused at once.
    vi.stubEnv('PWNED_PASSWORDS_URL', 'http://127.0.0.1:9');
    resetEnv();
    expect(await verdict(BREACHED)).toBe('accepted');
    expect(await isBreachedPassword(BREACHED)).toBeUndefined();
    expect(lines.some((l) => l.includes('breached-password check skipped'))).toBe(true);
    // A service that never answers: given up after the timeout.
    vi.spyOn(globalThis, 'fetch').mockImplementation(
      (_url, init) => new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason as Error))),
    );
    const started = Date.now();
    expect(await isBreachedPassword(BREACHED)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

describe('the same rules at register and reset', () => {
  it('register refuses a common and a breached password with a clear message, and creates nothing', async () => {
    for (const [password, code] of [['iloveyou2', 'password_weak'], [BREACHED, 'password_breached']] as const) {
      const email = uniqueEmail('weak');
      const res = await call('register', { body: { name: 'Bia', email, password, recaptchaToken: 'test-pass' } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(code);
      expect(res.body.error).toMatch(code === 'password_weak' ? /too easy to guess/ : /appeared in a data breach/);
      expect((await call('login', { body: { email, password } })).status).toBe(401);
    }
  });

  it('reset refuses a common password and keeps the link usable', async () => {
    const u = await registerUser();
    await call('forgotPassword', { body: { email: u.email, recaptchaToken: 'test-pass' } });
    const token = /reset-password#([A-Za-z0-9_-]{43})/.exec((await outbox()).filter((m) => m.to === u.email).at(-1)!.text)![1]!;
    const weak = await call('resetPassword', { body: { token, newPassword: 'sunshine1' } });
    expect(weak.status).toBe(400);
    expect(weak.body.code).toBe('password_weak');
    expect((await call('resetPassword', { body: { token, newPassword: STRONG } })).status).toBe(200);
  });
});

describe('change password', () => {
  const change = (token: string, currentPassword: string, newPassword: string) =>
    call('changePassword', { token, body: { currentPassword, newPassword } });

  it('ends every other session, keeps this one with a fresh token, and the new password signs in', async () => {
    const u = await registerUser();
    const other = sessionCookieOf(await call('login', { body: { email: u.email, password: u.password } }))!;
    const res = await change(u.token, u.password, STRONG);
    expect(res).toMatchObject({ status: 200, body: { ok: true } });
    const fresh = sessionCookieOf(res)!;
    expect(fresh).toBeTruthy();
    expect((await call('getMe', { token: other })).status).toBe(401);
    expect((await call('getMe', { token: u.token })).status).toBe(401);
    expect((await call('getMe', { token: fresh })).status).toBe(200);
    expect((await call('login', { body: { email: u.email, password: u.password } })).status).toBe(401);
    expect((await call('login', { body: { email: u.email, password: STRONG } })).status).toBe(200);
  });

  it("mails a notice in the user's language", async () => {
    const u = await registerUser();
    await updateProfile(u.id, { language: 'pt' });
    expect((await change(u.token, u.password, STRONG)).status).toBe(200);
    const mail = (await outbox()).filter((m) => m.to === u.email).at(-1)!;
    expect(mail.subject).toBe('Sua senha foi alterada');
    expect(mail.text).toContain('sessões abertas em outros dispositivos foram encerradas');
    expect(mail.text).toContain('http://localhost:3000/forgot-password');
    expect(mail.text).not.toContain(STRONG);
  });

  it('refuses a wrong current password with 400 and changes nothing', async () => {
    const u = await registerUser();
    const before = await getUser(u.id);
    const res = await change(u.token, 'not-my-password-1', STRONG);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'wrong_current_password', error: 'The current password is not correct.' });
    expect((await getUser(u.id))?.passwordHash).toBe(before?.passwordHash);
    expect((await call('getMe', { token: u.token })).status).toBe(200);
  });

  it('limits wrong current passwords per account, like sign-in; the right one then waits too', async () => {
    const u = await registerUser();
    for (let i = 0; i < CHANGE_PASSWORD_ATTEMPT_LIMIT; i++) expect((await change(u.token, `guess-number-${i}`, STRONG)).status).toBe(400);
    const limited = await change(u.token, u.password, STRONG);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('change_password_rate_limited');
    expect(limited.body.secondsLeft).toBeGreaterThan(0);
    expect((await call('login', { body: { email: u.email, password: u.password } })).status).toBe(200);
  });

  it('applies the same new-password rules, and needs a session', async () => {
    const u = await registerUser();
    expect((await change(u.token, u.password, 'password123')).body.code).toBe('password_weak');
    expect((await change(u.token, u.password, BREACHED)).body.code).toBe('password_breached');
    expect((await change(u.token, u.password, 'short')).body.error).toBe('Password must be at least 8 characters');
    expect((await call('changePassword', { body: { currentPassword: u.password, newPassword: STRONG } })).status).toBe(401);
    expect((await call('login', { body: { email: u.email, password: u.password } })).status).toBe(200);
  });
});
