import { describe, expect, it } from 'vitest';
import { clearRateLimit } from '../src/db/rate-limits.ts';
import { getUser } from '../src/db/users.ts';
import { call, outbox, registerUser, uniqueEmail } from './call.ts';

const register = (body: Record<string, unknown>) =>
  call('register', { body: { name: 'Bia', email: uniqueEmail(), password: 'long-enough-1', recaptchaToken: 'test-pass', ...body } });

async function resetLinkFor(email: string): Promise<string> {
  const mails = (await outbox()).filter((m) => m.to === email);
  const last = mails.at(-1);
  const token = /\/reset-password\/([A-Za-z0-9_-]{43})/.exec(last?.text ?? '')?.[1];
  if (!token) throw new Error(`no reset mail for ${email}`);
  return token;
}

describe('register', () => {
  it('creates the user, answers user and token, never the hash', async () => {
    const email = uniqueEmail();
    const res = await register({ email, name: '  Carla  ' });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ name: 'Carla', email, plan: 'free', language: 'en', theme: 'light' });
    expect(JSON.stringify(res.body)).not.toMatch(/passwordHash|scrypt|tokenVersion/);
    expect(typeof res.body.token).toBe('string');
  });

  it('refuses an email already taken, whatever its case', async () => {
    const email = uniqueEmail('dup');
    expect((await register({ email })).status).toBe(200);
    const again = await register({ email: email.toUpperCase() });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'email_taken' });
  });

  it.each([
    [{ name: '' }, 'Name is required'],
    [{ email: 'not-an-email' }, 'Enter a valid email address'],
    [{ password: '12345' }, 'Password must be at least 6 characters'],
    [{ password: 'password' }, 'This password is too common; choose another'],
    [{ password: 'x'.repeat(129) }, 'Password must be at most 128 characters'],
  ])('answers 400 for %j', async (patch, message) => {
    const email = uniqueEmail('bad');
    const res = await register({ email, ...patch });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
    expect((await call('login', { body: { email, password: 'long-enough-1' } })).status).toBe(401);
  });

  it('refuses a failed bot check and creates nothing', async () => {
    const email = uniqueEmail('bot');
    const res = await register({ email, recaptchaToken: 'nope' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('captcha_failed');
    expect((await register({ email })).status).toBe(200);
  });

  it('of 20 concurrent registrations of one address exactly one succeeds', async () => {
    const email = uniqueEmail('race');
    const results = await Promise.all(Array.from({ length: 20 }, () => register({ email })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(19);
  });
});

describe('login', () => {
  it('signs in with any case of the email', async () => {
    const u = await registerUser();
    const res = await call('login', { body: { email: u.email.toUpperCase(), password: u.password } });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: u.id });
  });

  it('gives one answer for an unknown email and a wrong password', async () => {
    const u = await registerUser();
    const wrong = await call('login', { body: { email: u.email, password: 'wrong-password' } });
    const unknown = await call('login', { body: { email: uniqueEmail('ghost'), password: 'wrong-password' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
  });

  it('locks an account after repeated failures, even for the right password', async () => {
    const u = await registerUser();
    for (let i = 0; i < 10; i++) {
      expect((await call('login', { body: { email: u.email, password: `bad-${i}` } })).status).toBe(401);
    }
    const locked = await call('login', { body: { email: u.email, password: u.password } });
    expect(locked.status).toBe(429);
    expect(locked.body.secondsLeft).toBeGreaterThan(0);
  });

  it('requires email and password', async () => {
    const res = await call('login', { body: { email: 'a@b.co' } });
    expect(res.status).toBe(400);
  });
});

describe('me', () => {
  it('reads and edits the profile', async () => {
    const u = await registerUser();
    expect((await call('getMe', { token: u.token })).body).toMatchObject({ id: u.id, email: u.email });
    const res = await call('updateMe', { token: u.token, body: { name: 'New Name', language: 'pt', transcriptionLang: 'es-ES' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'New Name', language: 'pt', transcriptionLang: 'es-ES' });
    expect((await call('getMe', { token: u.token })).body).toMatchObject({ name: 'New Name', language: 'pt' });
  });

  it('refuses unknown fields, bad values and empty patches without changing anything', async () => {
    const u = await registerUser();
    for (const body of [{ plan: 'pro' }, { language: 'de' }, { transcriptionLang: 'xx-XX' }, {}, { name: '   ' }]) {
      const res = await call('updateMe', { token: u.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await getUser(u.id)).toMatchObject({ plan: 'free', language: 'en', name: u.name });
  });

  it('keeps the dark theme for Pro users', async () => {
    const u = await registerUser();
    const res = await call('updateMe', { token: u.token, body: { theme: 'dark' } });
    expect(res.status).toBe(403);
    expect(res.body.requiresPro).toBe(true);
  });

  it('answers 401 without a token or with a bad one', async () => {
    expect((await call('getMe')).status).toBe(401);
    expect((await call('getMe', { token: 'abc.def.ghi' })).status).toBe(401);
    expect((await call('planStatus', { headers: { authorization: 'Basic xyz' } })).status).toBe(401);
  });

  it('answers the plan status from the database', async () => {
    const u = await registerUser();
    expect((await call('planStatus', { token: u.token })).body).toEqual({ plan: 'free', isPro: false, planExpiry: null });
  });
});

describe('password reset', () => {
  it('mails a link, resets once, then the new password works and old sessions end', async () => {
    const u = await registerUser();
    const res = await call('forgotPassword', { body: { email: u.email, recaptchaToken: 'test-pass' } });
    expect(res.status).toBe(200);
    const token = await resetLinkFor(u.email);

    const reset = await call('resetPassword', { body: { token, newPassword: 'brand-new-pass' } });
    expect(reset.status).toBe(200);
    expect((await call('resetPassword', { body: { token, newPassword: 'another-pass-2' } })).status).toBe(400);

    expect((await call('login', { body: { email: u.email, password: u.password } })).status).toBe(401);
    expect((await call('login', { body: { email: u.email, password: 'brand-new-pass' } })).status).toBe(200);
    expect((await call('getMe', { token: u.token })).status).toBe(401);
  });

  it('gives the same reply for an unknown email and sends nothing', async () => {
    const email = uniqueEmail('nobody');
    const res = await call('forgotPassword', { body: { email, recaptchaToken: 'test-pass' } });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Check your email for the password reset link.');
    expect((await outbox()).some((m) => m.to === email)).toBe(false);
  });

  it('allows one request per hour per email, registered or not, answering 429 with secondsLeft', async () => {
    const u = await registerUser();
    for (const email of [u.email, uniqueEmail('ghost')]) {
      expect((await call('forgotPassword', { body: { email, recaptchaToken: 'test-pass' } })).status).toBe(200);
      const again = await call('forgotPassword', { body: { email: email.toUpperCase(), recaptchaToken: 'test-pass' } });
      expect(again.status).toBe(429);
      expect(again.body.error).toBe('You can only request a password reset once per hour.');
      expect(again.body.secondsLeft).toBeGreaterThan(3590);
      expect(again.body.secondsLeft).toBeLessThanOrEqual(3600);
    }
    expect((await outbox()).filter((m) => m.to === u.email)).toHaveLength(1);
  });

  it('of 10 concurrent uses of one token exactly one succeeds', async () => {
    const u = await registerUser();
    await call('forgotPassword', { body: { email: u.email, recaptchaToken: 'test-pass' } });
    const token = await resetLinkFor(u.email);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => call('resetPassword', { body: { token, newPassword: `concurrent-${i}-pass` } })),
    );
    const winners = results.map((r, i) => (r.status === 200 ? i : -1)).filter((i) => i >= 0);
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => r.status === 400)).toHaveLength(9);
    const login = await call('login', { body: { email: u.email, password: `concurrent-${winners[0]}-pass` } });
    expect(login.status).toBe(200);
  });

  it('a reset invalidates older reset tokens', async () => {
    const u = await registerUser();
    await call('forgotPassword', { body: { email: u.email, recaptchaToken: 'test-pass' } });
    const first = await resetLinkFor(u.email);
    await clearRateLimit('forgot-password', u.email.toLowerCase());
    await call('forgotPassword', { body: { email: u.email, recaptchaToken: 'test-pass' } });
    const second = await resetLinkFor(u.email);
    expect(second).not.toBe(first);
    expect((await call('resetPassword', { body: { token: second, newPassword: 'second-pass-1' } })).status).toBe(200);
    const stale = await call('resetPassword', { body: { token: first, newPassword: 'first-pass-11' } });
    expect(stale.status).toBe(400);
    expect(stale.body.code).toBe('reset_invalid');
  });

  it('refuses malformed and unknown tokens and weak passwords', async () => {
    expect((await call('resetPassword', { body: { token: 'short', newPassword: 'good-pass-1' } })).status).toBe(400);
    const unknown = await call('resetPassword', { body: { token: 'a'.repeat(43), newPassword: 'good-pass-1' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('reset_invalid');
    const weak = await call('resetPassword', { body: { token: 'a'.repeat(43), newPassword: '123' } });
    expect(weak.body.error).toBe('Password must be at least 6 characters');
  });
});

describe('settings', () => {
  it('reads construction mode, off by default', async () => {
    expect((await call('constructionMode')).body).toEqual({ constructionMode: false });
  });
});
