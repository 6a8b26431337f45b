import { describe, expect, it } from 'vitest';
import {
  FREE_RECOGNITION_LANGUAGE,
  LOGIN_ACCOUNT_CAPTCHA_AFTER,
  LOGIN_ATTEMPT_LIMIT,
  LOGIN_CAPTCHA_AFTER,
  LOGIN_WINDOW_SECONDS,
} from '@app/shared/constants';
import { RECOGNITION_LANGUAGES } from '@app/shared/recognition-languages';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../src/db/client.ts';
import { keys } from '../src/db/keys.ts';
import { clearRateLimit } from '../src/db/rate-limits.ts';
import { createUser, getUser, setPlan } from '../src/db/users.ts';
import { hashPassword } from '../src/domain/passwords.ts';
import { call, outbox, registerUser, sessionCookieOf, uniqueEmail } from './call.ts';
import { CAPTCHA_SITE, useCaptchaProvider } from './captcha-provider.ts';

const register = (body: Record<string, unknown>) =>
  call('register', { body: { name: 'Bia', email: uniqueEmail(), password: 'long-enough-1', recaptchaToken: 'test-pass', ...body } });

let ipSeq = 0;
/** A fresh client address per test, so sign-in counts do not leak between tests. */
const freshIp = () => `203.0.113.${++ipSeq}`;
const login = (email: string, password: string, sourceIp: string, recaptchaToken?: string) =>
  call('login', { body: { email, password, ...(recaptchaToken ? { recaptchaToken } : {}) }, sourceIp });

async function resetLinkFor(email: string): Promise<string> {
  const mails = (await outbox()).filter((m) => m.to === email && m.subject === 'Reset your password');
  const last = mails.at(-1);
  const token = /\/reset-password#([A-Za-z0-9_-]{43})/.exec(last?.text ?? '')?.[1];
  if (!token) throw new Error(`no reset mail for ${email}`);
  return token;
}

describe('register', () => {
  it('creates the user, answers the user and sets the session cookie, never the hash nor the token in the body', async () => {
    const email = uniqueEmail();
    const res = await register({ email, name: '  Carla  ' });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ name: 'Carla', email, plan: 'free', language: 'en', theme: 'light' });
    expect(JSON.stringify(res.body)).not.toMatch(/passwordHash|scrypt|tokenVersion/);
    expect(res.body).not.toHaveProperty('token');
    expect(sessionCookieOf(res)).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(res.headers['set-cookie']).toMatch(/; HttpOnly; Secure; SameSite=Strict$/);
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
    [{ password: 'abcdefg' }, 'Password must be at least 8 characters'],
    [{ password: 'password1' }, 'This password is too easy to guess: it is common or follows a simple pattern. Choose a longer, less predictable one.'],
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

describe('the bot check on a form', () => {
  const provider = useCaptchaProvider();

  it("gives the provider the viewer's whole address (not the /64 network the limits count) and the form's action", async () => {
    const asked = provider({ success: true, score: 0.9, action: 'register', hostname: CAPTCHA_SITE });
    const res = await call('register', {
      body: { name: 'Viewer', email: uniqueEmail('captcha'), password: 'long-enough-1', recaptchaToken: 'token' },
      headers: { 'x-viewer-address': '2001:db8:1:2:3:4:5:6' },
    });
    expect(res.status).toBe(200);
    expect(asked.map((b) => b.get('remoteip'))).toEqual(['2001:db8:1:2:3:4:5:6']);
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

  it('asks for the bot check past the threshold, per account and address; the right password with it signs in', async () => {
    const u = await registerUser();
    const ip = freshIp();
    for (let i = 0; i < LOGIN_CAPTCHA_AFTER; i++) {
      expect((await login(u.email, `bad-${i}`, ip)).status).toBe(401);
    }
    const asked = await login(u.email, u.password, ip);
    expect(asked.status).toBe(400);
    expect(asked.body).toMatchObject({ code: 'captcha_required' });
    expect(asked.body).not.toHaveProperty('token');
    const failedCheck = await login(u.email, u.password, ip, 'not-a-pass');
    expect(failedCheck.status).toBe(400);
    expect(failedCheck.body.code).toBe('captcha_failed');
    expect((await login(u.email, 'bad-again', ip, 'test-pass')).status).toBe(401);
    // Another address is not asked.
    expect((await login(u.email, u.password, freshIp())).status).toBe(200);
    const signedIn = await login(u.email, u.password, ip, 'test-pass');
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user).toMatchObject({ id: u.id });
    // A success clears this address's count.
    expect((await login(u.email, 'bad-after', ip)).status).toBe(401);
  });

  it('answers an unknown email exactly like a known one, counting included', async () => {
    const u = await registerUser();
    const ghost = uniqueEmail('ghost');
    const ip = freshIp();
    for (let i = 0; i <= LOGIN_CAPTCHA_AFTER; i++) {
      const known = await login(u.email, `bad-${i}`, ip);
      const unknown = await login(ghost, `bad-${i}`, ip);
      expect(unknown.status).toBe(known.status);
      expect(unknown.body).toEqual(known.body);
    }
    expect((await login(ghost, 'bad', ip)).body.code).toBe('captcha_required');
  });

  it('counts attempts before checking the password, so parallel guesses cannot outrun the count', async () => {
    const u = await registerUser();
    const ip = freshIp();
    const guesses = 12;
    const results = await Promise.all(Array.from({ length: guesses }, (_, i) => login(u.email, `parallel-${i}`, ip)));
    expect(results.filter((r) => r.status === 401)).toHaveLength(LOGIN_CAPTCHA_AFTER);
    expect(results.filter((r) => r.body.code === 'captcha_required')).toHaveLength(guesses - LOGIN_CAPTCHA_AFTER);
  });

  it('a stranger cannot lock the account: their address waits, the owner signs in with the bot check', async () => {
    const u = await registerUser();
    const stranger = freshIp();
    for (let i = 0; i < LOGIN_ATTEMPT_LIMIT; i++) {
      const res = await login(u.email, `guess-${i}`, stranger, 'test-pass');
      expect(res.status).toBe(401);
    }
    const limited = await login(u.email, u.password, stranger, 'test-pass');
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('login_rate_limited');
    expect(limited.body.secondsLeft).toBeGreaterThan(0);
    expect(limited.body.secondsLeft).toBeLessThanOrEqual(LOGIN_WINDOW_SECONDS);
    expect(limited.body).not.toHaveProperty('token');

    // So many attempts on the account from anywhere ask every address for the bot check...
    expect(LOGIN_ATTEMPT_LIMIT).toBeGreaterThan(LOGIN_ACCOUNT_CAPTCHA_AFTER);
    const owner = freshIp();
    expect((await login(u.email, u.password, owner)).body.code).toBe('captcha_required');
    // ...and the right password with it still signs in.
    const signedIn = await login(u.email, u.password, owner, 'test-pass');
    expect(signedIn.status).toBe(200);
    expect(sessionCookieOf(signedIn)).toBeTruthy();
  });

  it('still signs in an existing user whose password is shorter than the new minimum', async () => {
    const email = uniqueEmail('legacy');
    await createUser({ name: 'Old Timer', email, passwordHash: await hashPassword('q7#k2z', 12), language: 'en' });
    const res = await login(email, 'q7#k2z', freshIp());
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ email });
  });

  it('requires email and password', async () => {
    const res = await call('login', { body: { email: 'a@b.co' } });
    expect(res.status).toBe(400);
  });
});

describe('me', () => {
  it('reads and edits the profile', async () => {
    const u = await registerUser();
    await setPlan(u.id, 'pro', new Date(Date.now() + 86_400_000).toISOString());
    expect((await call('getMe', { token: u.token })).body).toMatchObject({ id: u.id, email: u.email });
    const res = await call('updateMe', { token: u.token, body: { name: 'New Name', language: 'pt', transcriptionLang: 'es-ES' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'New Name', language: 'pt', transcriptionLang: 'es-ES' });
    expect((await call('getMe', { token: u.token })).body).toMatchObject({ name: 'New Name', language: 'pt' });
  });

  it("a recognition language not chosen is the interface language's locale, following it; a choice stays", async () => {
    for (const [language, locale] of [['pt', 'pt-BR'], ['en', 'en-US'], ['es', 'es-ES']] as const) {
      const res = await register({ language });
      expect(res.body.user, language).toMatchObject({ language, transcriptionLang: locale });
    }
    const u = await registerUser();
    await setPlan(u.id, 'pro', new Date(Date.now() + 86_400_000).toISOString());
    expect((await call('getMe', { token: u.token })).body).toMatchObject({ language: 'en', transcriptionLang: 'en-US' });
    // Nothing is stored until the user chooses.
    expect(await getUser(u.id)).not.toHaveProperty('transcriptionLang');
    expect((await call('updateMe', { token: u.token, body: { language: 'es' } })).body).toMatchObject({ transcriptionLang: 'es-ES' });
    // Choosing the old default (pt-BR) is a choice like any other: it stays through interface changes.
    expect((await call('updateMe', { token: u.token, body: { transcriptionLang: 'pt-BR' } })).body).toMatchObject({ transcriptionLang: 'pt-BR' });
    expect((await call('updateMe', { token: u.token, body: { language: 'en' } })).body).toMatchObject({ language: 'en', transcriptionLang: 'pt-BR' });
    expect((await call('getMe', { token: u.token })).body).toMatchObject({ transcriptionLang: 'pt-BR' });
    expect(await getUser(u.id)).toMatchObject({ transcriptionLang: 'pt-BR', transcriptionLangChosen: true });
  });

  it('records from before the choice was marked: the old default pt-BR follows the interface language, any other value stays', async () => {
    const u = await registerUser();
    const storeLegacy = (transcriptionLang: string) =>
      db().send(new UpdateCommand({
        TableName: tableName(), Key: keys.user(u.id),
        UpdateExpression: 'SET transcriptionLang = :lang REMOVE transcriptionLangChosen', ExpressionAttributeValues: { ':lang': transcriptionLang },
      }));
    await storeLegacy('pt-BR');
    expect((await call('getMe', { token: u.token })).body).toMatchObject({ language: 'en', transcriptionLang: 'en-US' });
    await storeLegacy('ru-RU');
    expect((await call('getMe', { token: u.token })).body).toMatchObject({ transcriptionLang: 'ru-RU' });
  });

  it('refuses unknown fields, bad values and empty patches without changing anything', async () => {
    const u = await registerUser();
    for (const body of [{ plan: 'pro' }, { language: 'de' }, { transcriptionLang: 'xx-XX' }, {}, { name: '   ' }]) {
      const res = await call('updateMe', { token: u.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await getUser(u.id)).toMatchObject({ plan: 'free', language: 'en', name: u.name });
  });

  it('accepts every listed recognition language from a Pro user, and refuses an unlisted one by name', async () => {
    const u = await registerUser();
    await setPlan(u.id, 'pro', new Date(Date.now() + 86_400_000).toISOString());
    // A sample of the list (its first, every tenth, the scripts apart), the last one last.
    const sample = [...new Set([...RECOGNITION_LANGUAGES.filter((_, i) => i % 10 === 0), 'ja-JP', 'yue-Hant-HK', 'fil-PH', 'fa-IR', RECOGNITION_LANGUAGES.at(-1)!])];
    for (const transcriptionLang of sample) {
      const res = await call('updateMe', { token: u.token, body: { transcriptionLang } });
      expect(res.status, transcriptionLang).toBe(200);
      expect(res.body).toMatchObject({ transcriptionLang });
    }
    for (const transcriptionLang of ['ja-jp', 'ja', 'tlh-QO', 'en-US ', 42]) {
      const res = await call('updateMe', { token: u.token, body: { transcriptionLang } });
      expect(res.status, String(transcriptionLang)).toBe(400);
      expect(res.body.error).toMatch(typeof transcriptionLang === 'string' ? `Unsupported recognition language "${transcriptionLang}"` : 'recognition language');
    }
    expect(await getUser(u.id)).toMatchObject({ transcriptionLang: RECOGNITION_LANGUAGES.at(-1) });
  });

  it('keeps a free account to the free recognition language', async () => {
    const u = await registerUser();
    for (const transcriptionLang of ['ja-JP', 'es-ES']) {
      const res = await call('updateMe', { token: u.token, body: { transcriptionLang } });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'requires_pro', requiresPro: true });
    }
    expect(await getUser(u.id)).not.toHaveProperty('transcriptionLang');
    expect((await call('updateMe', { token: u.token, body: { transcriptionLang: FREE_RECOGNITION_LANGUAGE } })).status).toBe(200);
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
    expect((await call('planStatus', { token: u.token })).body).toEqual({ plan: 'free', isPro: false, planExpiry: null, planRenews: false });
  });
});

describe('logout', () => {
  it("ends this session only and clears its cookie; the user's other sessions go on; signing in again works", async () => {
    const u = await registerUser();
    const other = sessionCookieOf(await login(u.email, u.password, freshIp()))!;
    const bystander = await registerUser();
    const res = await call('logout', { cookie: u.token });
    expect(res).toMatchObject({ status: 200, body: { ok: true } });
    expect(sessionCookieOf(res)).toBe('');
    expect(res.headers['set-cookie']).toContain('Max-Age=0');
    expect((await call('getMe', { cookie: u.token })).status).toBe(401);
    expect((await call('getMe', { token: u.token })).status).toBe(401);
    expect((await call('logout', { token: u.token })).status).toBe(401);
    expect((await call('getMe', { cookie: other })).status).toBe(200);
    expect((await call('getMe', { token: bystander.token })).status).toBe(200);
    const again = sessionCookieOf(await login(u.email, u.password, freshIp()))!;
    expect((await call('getMe', { cookie: again })).status).toBe(200);
  });

  it('sign out everywhere ends every session of the user, on every device, and clears this cookie; signing in again works', async () => {
    const u = await registerUser();
    const other = sessionCookieOf(await login(u.email, u.password, freshIp()))!;
    const bystander = await registerUser();
    const res = await call('logoutEverywhere', { cookie: u.token });
    expect(res).toMatchObject({ status: 200, body: { ok: true } });
    expect(sessionCookieOf(res)).toBe('');
    expect((await call('getMe', { cookie: u.token })).status).toBe(401);
    expect((await call('getMe', { cookie: other })).status).toBe(401);
    expect((await call('logoutEverywhere', { cookie: other })).status).toBe(401);
    expect((await call('getMe', { token: bystander.token })).status).toBe(200);
    const again = sessionCookieOf(await login(u.email, u.password, freshIp()))!;
    expect((await call('getMe', { cookie: again })).status).toBe(200);
  });

  it('answers 401 without a valid token and changes nothing', async () => {
    const u = await registerUser();
    const before = await getUser(u.id);
    expect((await call('logout')).status).toBe(401);
    expect((await call('logout', { token: 'abc.def.ghi' })).status).toBe(401);
    expect((await call('logoutEverywhere', { cookie: 'abc.def.ghi' })).status).toBe(401);
    expect(await getUser(u.id)).toEqual(before);
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
    expect((await outbox()).filter((m) => m.to === u.email && m.subject === 'Reset your password')).toHaveLength(1);
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
    expect(weak.body.error).toBe('Password must be at least 8 characters');
  });
});

describe('settings', () => {
  it('reads maintenance mode, off by default', async () => {
    expect((await call('maintenanceMode')).body).toEqual({ constructionMode: false });
  });
});
