import { decodeJwt, SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SESSION_COOKIE, SESSION_MAX_SECONDS, SESSION_USER_HEADER, TOKEN_RENEW_AFTER_SECONDS, TOKEN_TTL_SECONDS } from '@app/shared/constants';
import { getUser } from '../src/db/users.ts';
import { sessionExpiry, sessionWithinLifetime } from '../src/domain/sessions.ts';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '../src/lib/auth.ts';
import { requestCookies } from '../src/lib/session-cookie.ts';
import { call, legacyToken, registerUser, sessionCookieOf } from './call.ts';

/**
 * Cookie sessions (docs/sessions.md): the idle timeout and the absolute lifetime on a fake clock,
 * the renewal in the cookie, the move of an earlier version's token into the cookie, and the
 * refusal of state-changing requests another site starts.
 */

const DAY = 24 * 60 * 60;
const now = () => Math.floor(Date.now() / 1000);
/** Moves the fake clock (Date only: DynamoDB Local's calls still run) `seconds` on. */
const advance = (seconds: number) => vi.setSystemTime(Date.now() + seconds * 1000);

afterEach(() => {
  vi.useRealTimers();
});

describe('session lifetime (fake clock)', () => {
  it('the idle timeout: a session not used for TOKEN_TTL_SECONDS (7 days) ends, and its cookie is cleared', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const u = await registerUser();
    expect(TOKEN_TTL_SECONDS).toBe(7 * DAY);
    advance(TOKEN_TTL_SECONDS - 60);
    // Unused until a minute before the end: still signed in, and renewed for another week.
    const used = await call('getMe', { cookie: u.token });
    expect(used.status).toBe(200);
    const fresh = sessionCookieOf(used)!;
    expect(decodeJwt(fresh).exp).toBe(now() + TOKEN_TTL_SECONDS);
    // A week without use after that renewal ends it.
    advance(TOKEN_TTL_SECONDS + 1);
    const idle = await call('getMe', { cookie: fresh });
    expect(idle).toMatchObject({ status: 401, body: { code: 'session_expired' } });
    expect(sessionCookieOf(idle)).toBe('');
    expect(idle.headers['set-cookie']).toContain('Max-Age=0');
  });

  it('renews a token older than TOKEN_RENEW_AFTER_SECONDS in the cookie: the same session (sid, sign-in time), a fresh expiry', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const u = await registerUser();
    const first = decodeJwt(u.token);
    expect(first.exp! - first.iat!).toBe(TOKEN_TTL_SECONDS);
    advance(TOKEN_RENEW_AFTER_SECONDS - 60);
    const young = await call('getMe', { cookie: u.token });
    expect(young.status).toBe(200);
    expect(young.headers).not.toHaveProperty('set-cookie');
    advance(120);
    const old = await call('updateMe', { cookie: u.token, body: { name: 'Renewed' } });
    expect(old.status).toBe(200);
    expect(old.headers['set-cookie']).toMatch(new RegExp(`^${SESSION_COOKIE}=[^;]+; Max-Age=${TOKEN_TTL_SECONDS}; Path=/; HttpOnly; Secure; SameSite=Strict$`));
    const renewed = decodeJwt(sessionCookieOf(old)!);
    expect(renewed).toMatchObject({ sub: u.id, sid: first.sid, auth_time: first.auth_time, iat: now(), exp: now() + TOKEN_TTL_SECONDS });
    // A script's Bearer token is not renewed into a cookie it would not keep.
    expect((await call('getMe', { token: u.token })).headers).not.toHaveProperty('set-cookie');
  });

  it('the absolute lifetime: used every day, a session still ends SESSION_MAX_SECONDS (30 days) after its sign-in', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    expect(SESSION_MAX_SECONDS).toBe(30 * DAY);
    const u = await registerUser();
    const signedIn = now();
    let token = u.token;
    for (let day = 1; day < 30; day++) {
      advance(DAY);
      const res = await call('getMe', { cookie: token });
      expect(res.status, `day ${day}`).toBe(200);
      token = sessionCookieOf(res) ?? token;
    }
    // The renewals never reach past the sign-in's 30 days, in the token nor in the cookie's life.
    expect(decodeJwt(token).exp).toBe(signedIn + SESSION_MAX_SECONDS);
    advance(DAY - 60);
    const lastMinute = await call('getMe', { cookie: token });
    expect(lastMinute.status).toBe(200);
    expect(lastMinute.headers['set-cookie']).toContain('Max-Age=60;');
    token = sessionCookieOf(lastMinute) ?? token;
    advance(60);
    const over = await call('getMe', { cookie: token });
    expect(over).toMatchObject({ status: 401, body: { code: 'session_expired' } });
    expect(sessionCookieOf(over)).toBe('');
  });

  it('refuses a token past the absolute lifetime even when its own expiry is later', async () => {
    const u = await registerUser();
    const token = await new SignJWT({ tv: 0, sid: 'some-session', auth_time: now() - SESSION_MAX_SECONDS - 60 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(u.id)
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(process.env.JWT_SECRET!));
    expect((await call('getMe', { cookie: token })).status).toBe(401);
  });

  it('the rules as pure functions', () => {
    const t = 1_000_000;
    expect(sessionExpiry(t, t)).toBe(t + TOKEN_TTL_SECONDS);
    expect(sessionExpiry(t, t + 29 * DAY)).toBe(t + SESSION_MAX_SECONDS);
    expect(sessionWithinLifetime(t, t, t + SESSION_MAX_SECONDS - 1)).toBe(true);
    expect(sessionWithinLifetime(t, t, t + SESSION_MAX_SECONDS)).toBe(false);
    expect(sessionWithinLifetime(t + 1, t, t + 2)).toBe(false);
  });
});

describe('the session cookie', () => {
  it('is set by sign-up and sign-in, HttpOnly, Secure, SameSite=Strict, host-only, as long as the token', async () => {
    const u = await registerUser();
    const res = await call('login', { body: { email: u.email, password: u.password }, sourceIp: '198.51.100.200' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user: expect.objectContaining({ id: u.id }) });
    expect(res.headers['set-cookie']).toBe(`${SESSION_COOKIE}=${sessionCookieOf(res)}; Max-Age=${TOKEN_TTL_SECONDS}; Path=/; HttpOnly; Secure; SameSite=Strict`);
  });

  it('is read from any of the Cookie headers a browser sends, beside other cookies', () => {
    expect(requestCookies({ headers: { Cookie: 'a=1; __Host-session=tok; b=2' }, multiValueHeaders: {} })).toEqual({ a: '1', [SESSION_COOKIE]: 'tok', b: '2' });
    expect(requestCookies({ headers: { cookie: 'b=2' }, multiValueHeaders: { cookie: ['a=1', `${SESSION_COOKIE}=tok; b=2`] } })).toEqual({ a: '1', [SESSION_COOKIE]: 'tok', b: '2' });
    expect(requestCookies({ headers: {}, multiValueHeaders: {} })).toEqual({});
  });

  it('refuses a call meant for another user (x-session-user) with 401 session_changed, changing nothing', async () => {
    const a = await registerUser();
    const b = await registerUser();
    const res = await call('autosaveSessionId', { cookie: b.token, headers: { [SESSION_USER_HEADER]: a.id }, query: { language: 'en-US', key: 'k-meant-for-a-1' } });
    expect(res).toMatchObject({ status: 401, body: { code: 'session_changed' } });
    expect((await call('listAutomaticTranscriptions', { cookie: b.token })).body).toMatchObject({ transcriptions: [] });
    expect(res.headers).not.toHaveProperty('set-cookie');
    expect((await call('getMe', { cookie: b.token, headers: { [SESSION_USER_HEADER]: b.id } })).status).toBe(200);
  });

  it('gives way to a Bearer header a script chooses; a refused Bearer token clears no cookie', async () => {
    const a = await registerUser();
    const b = await registerUser();
    expect((await call('getMe', { cookie: a.token, token: b.token })).body).toMatchObject({ id: b.id });
    const refused = await call('getMe', { token: 'abc.def.ghi' });
    expect(refused.status).toBe(401);
    expect(refused.headers).not.toHaveProperty('set-cookie');
  });
});

describe('moving an earlier version’s session into the cookie', () => {
  it('takes a stored token once as a Bearer header, sets the cookie and answers the user', async () => {
    const u = await registerUser();
    const legacy = await legacyToken(u.id, 3 * DAY);
    const res = await call('exchangeSession', { token: legacy });
    expect(res).toMatchObject({ status: 200, body: { user: { id: u.id, email: u.email } } });
    const cookie = sessionCookieOf(res)!;
    const claims = decodeJwt(cookie);
    // Its absolute lifetime counts from the move.
    expect(Math.abs((claims.auth_time as number) - now())).toBeLessThan(5);
    expect((await call('getMe', { cookie })).status).toBe(200);
    // The old token opens no other route.
    expect((await call('getMe', { token: legacy })).status).toBe(401);
  });

  it('refuses, changing nothing: no token, a current one, an expired one, one ended by sign out everywhere', async () => {
    const u = await registerUser();
    const old = await legacyToken(u.id);
    for (const token of [undefined, 'abc.def.ghi', u.token, await legacyToken(u.id, TOKEN_TTL_SECONDS + 60), await legacyToken(u.id, 0, 3)]) {
      const res = await call('exchangeSession', { token });
      expect(res.status).toBe(401);
      expect(res.headers).not.toHaveProperty('set-cookie');
    }
    // Without a token, the answer says what was missing.
    expect((await call('exchangeSession', {})).body).toMatchObject({ error: expect.stringMatching(/^No session to move/), code: 'unauthorized' });
    expect((await call('logoutEverywhere', { token: u.token })).status).toBe(200);
    expect((await call('exchangeSession', { token: old })).status).toBe(401);
  });
});

describe('requests from another site', () => {
  const otherSite = [
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site (another subdomain)', { 'sec-fetch-site': 'same-site' }],
    ['an Origin of another site', { origin: 'https://evil.example' }],
    ['an opaque Origin (null)', { origin: 'null' }],
  ] as const;

  it.each(otherSite)('a form post with %s is refused 403 and changes nothing, with the session cookie', async (_name, headers) => {
    const u = await registerUser();
    const before = await getUser(u.id);
    const res = await call('logoutEverywhere', {
      cookie: u.token,
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: 'confirm=1',
    });
    expect(res).toMatchObject({ status: 403, body: { code: 'cross_site', error: expect.any(String) } });
    expect(res.headers).not.toHaveProperty('set-cookie');
    expect(await getUser(u.id)).toEqual(before);
    expect((await call('getMe', { cookie: u.token })).status).toBe(200);
  });

  it('refuses a GET that writes, a sign-in and a sign-up too; reads and Stripe’s webhook are not asked', async () => {
    const u = await registerUser();
    const cross = { 'sec-fetch-site': 'cross-site' };
    expect((await call('autosaveSessionId', { cookie: u.token, headers: cross, query: { language: 'en-US', key: 'k-cross-site-1' } })).status).toBe(403);
    expect((await call('login', { headers: cross, body: { email: u.email, password: u.password } })).status).toBe(403);
    expect((await call('register', { headers: cross, body: { name: 'X', email: `x-${u.email}`, password: 'correct-horse-9', recaptchaToken: 'test-pass' } })).status).toBe(403);
    expect((await call('getMe', { cookie: u.token, headers: cross })).status).toBe(200);
    expect((await call('stripeWebhook', { headers: { origin: 'https://evil.example' }, rawBody: '{}' })).body.code).not.toBe('cross_site');
  });

  it('lets the site’s own pages through: same-origin, the address bar, the local server’s other names, scripts', async () => {
    const u = await registerUser();
    const cases: Record<string, string>[] = [
      { 'sec-fetch-site': 'same-origin', origin: 'http://localhost:3000' },
      { 'sec-fetch-site': 'same-origin', origin: 'http://127.0.0.1:3000' },
      { 'sec-fetch-site': 'none' },
      {},
    ];
    for (const headers of cases) expect((await call('updateMe', { cookie: u.token, headers, body: { name: 'Same' } })).status).toBe(200);
  });
});
