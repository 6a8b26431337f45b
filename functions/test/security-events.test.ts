import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOGIN_ATTEMPT_LIMIT, LOGIN_CAPTCHA_AFTER, SECURITY_EVENTS, type SecurityEvent } from '@app/shared/constants';
import { setSiteSettings } from '../src/db/site-settings.ts';
import { hashPassword } from '../src/domain/passwords.ts';
import { call, legacyToken, outbox, registerUser, sessionCookieOf } from './call.ts';
import { assert, ORIGIN, registerPasskey } from './soft-authenticator.ts';

/**
 * Security events: every sign-in refused or slowed, bot check demanded or failed, password reset
 * asked for, refused or done, logout and maintenance-password attempt writes one JSON log line
 * that is also a CloudWatch metric (embedded metric format), whatever LOG_LEVEL says but silent,
 * and never carries the email address or the password.
 */

let lines: Record<string, unknown>[] = [];
const seen = new Set<SecurityEvent>();

beforeEach(() => {
  lines = [];
  // A level that keeps only errors: security events are written anyway.
  vi.stubEnv('LOG_LEVEL', 'error');
  vi.stubEnv('METRICS_NAMESPACE', 'Test');
  const capture = (line: unknown) => {
    // Other lines (the local mail transport prints what it sends) are not JSON.
    if (typeof line !== 'string' || !line.startsWith('{')) return;
    const parsed = JSON.parse(line) as Record<string, unknown>;
    lines.push(parsed);
    if (typeof parsed.security_event === 'string') seen.add(parsed.security_event as SecurityEvent);
  };
  vi.spyOn(console, 'log').mockImplementation(capture);
  vi.spyOn(console, 'error').mockImplementation(capture);
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** The security events written since the test began, in order. */
const events = () => lines.filter((l) => typeof l.security_event === 'string');
const names = () => events().map((l) => l.security_event);

let ipSeq = 0;
const freshIp = () => `198.51.100.${++ipSeq}`;

describe('security events', () => {
  it('a failed sign-in is a warning line that is also a SecurityEvents metric, with the user and address but not the email or password', async () => {
    const user = await registerUser();
    const ip = freshIp();
    lines = [];
    expect((await call('login', { body: { email: user.email, password: 'not-the-password' }, sourceIp: ip })).status).toBe(401);
    const [line, ...rest] = events();
    expect(rest).toEqual([]);
    expect(line).toMatchObject({
      level: 'WARN',
      message: 'security event: login_failed',
      security_event: 'login_failed',
      user_id: user.id,
      source_ip: ip,
      SecurityEvents: 1,
      _aws: {
        Timestamp: expect.any(Number),
        CloudWatchMetrics: [{ Namespace: 'Test', Dimensions: [['security_event']], Metrics: [{ Name: 'SecurityEvents', Unit: 'Count' }] }],
      },
    });
    expect(JSON.stringify(line)).not.toContain(user.email);
    expect(JSON.stringify(line)).not.toContain('not-the-password');
    // An unknown email: the same event, no user.
    await call('login', { body: { email: 'nobody@example.com', password: 'whatever-123' }, sourceIp: freshIp() });
    expect(events().at(-1)).toMatchObject({ security_event: 'login_failed', user_id: null });
  });

  it('repeated failures: the bot check is demanded, a wrong bot-check token fails it, and past the limit the address is refused', async () => {
    const user = await registerUser();
    const ip = freshIp();
    const attempt = (recaptchaToken?: string) =>
      call('login', { body: { email: user.email, password: 'wrong-password-1', ...(recaptchaToken ? { recaptchaToken } : {}) }, sourceIp: ip });
    for (let i = 0; i < LOGIN_CAPTCHA_AFTER; i++) expect((await attempt()).status).toBe(401);
    expect(names()).toEqual(Array(LOGIN_CAPTCHA_AFTER).fill('login_failed'));
    lines = [];
    expect((await attempt()).body).toMatchObject({ code: 'captcha_required' });
    expect(events()).toEqual([expect.objectContaining({ security_event: 'bot_check_demanded', action: 'login', source_ip: ip, level: 'INFO' })]);
    lines = [];
    expect((await attempt('not-a-token')).body).toMatchObject({ code: 'captcha_failed' });
    expect(events()).toEqual([expect.objectContaining({ security_event: 'bot_check_failed', action: 'login', level: 'WARN' })]);
    for (let i = LOGIN_CAPTCHA_AFTER + 2; i < LOGIN_ATTEMPT_LIMIT; i++) await attempt('test-pass');
    lines = [];
    expect((await attempt('test-pass')).status).toBe(429);
    expect(names()).toEqual(['login_rate_limited']);
  });

  it('a password reset: asked for (once an hour), refused with a bad link, done with the mailed one', async () => {
    const user = await registerUser();
    const ask = () => call('forgotPassword', { body: { email: user.email, recaptchaToken: 'test-pass' } });
    expect((await ask()).status).toBe(200);
    expect(events()).toEqual([expect.objectContaining({ security_event: 'password_reset_requested', user_id: user.id })]);
    lines = [];
    expect((await ask()).status).toBe(429);
    expect(names()).toEqual(['password_reset_rate_limited']);
    lines = [];
    expect((await call('resetPassword', { body: { token: 'x'.repeat(43), newPassword: 'brand-new-pass-7' } })).status).toBe(400);
    expect(names()).toEqual(['password_reset_refused']);
    const mail = (await outbox()).filter((m) => m.to === user.email).at(-1)!;
    const token = /#([A-Za-z0-9_-]{43})/.exec(mail.text)![1]!;
    lines = [];
    expect((await call('resetPassword', { body: { token, newPassword: 'brand-new-pass-7' } })).status).toBe(200);
    expect(events()).toEqual([expect.objectContaining({ security_event: 'password_reset', user_id: user.id })]);
    expect(JSON.stringify(lines)).not.toContain(token);
  });

  it('a password change: refused with a wrong current password, limited, done', async () => {
    const user = await registerUser();
    lines = [];
    const change = (currentPassword: string) => call('changePassword', { token: user.token, body: { currentPassword, newPassword: 'violet-harbor-lantern-42' } });
    expect((await change('wrong-password-1')).status).toBe(400);
    expect(events()).toEqual([expect.objectContaining({ security_event: 'password_change_failed', user_id: user.id, level: 'WARN' })]);
    lines = [];
    expect((await change(user.password)).status).toBe(200);
    expect(names()).toEqual(['password_changed']);
    expect(JSON.stringify(lines)).not.toContain('violet-harbor-lantern-42');
    const again = await call('login', { body: { email: user.email, password: 'violet-harbor-lantern-42' } });
    const token = sessionCookieOf(again)!;
    let status = 400;
    for (let i = 0; i < 10 && status === 400; i++) {
      status = (await call('changePassword', { token, body: { currentPassword: `guess-${i}-wrong`, newPassword: 'violet-harbor-lantern-43' } })).status;
    }
    expect(status).toBe(429);
    expect(names().at(-1)).toBe('password_change_rate_limited');
  });

  it('passkeys: added, a refused passkey sign-in, a recovery code wrong then used, removed', async () => {
    const user = await registerUser();
    lines = [];
    const { passkey, id, recoveryCodes } = await registerPasskey(user.token);
    expect(events()).toEqual([expect.objectContaining({ security_event: 'passkey_added', user_id: user.id, level: 'INFO' })]);

    const ceremony = await call<{ flow: string; options: { challenge: string } }>('startPasskeySignIn');
    lines = [];
    const replayed = assert(passkey, { challenge: 'not-the-challenge' }, ORIGIN);
    expect((await call('passkeySignIn', { body: { flow: ceremony.body.flow, credential: replayed } })).status).toBe(401);
    expect(events()).toEqual([expect.objectContaining({ security_event: 'passkey_sign_in_failed', level: 'WARN' })]);

    await call('setPasskeyRequirement', { token: user.token, body: { required: true } });
    const step = await call<{ secondFactor: { flow: string } }>('login', { body: { email: user.email, password: user.password }, sourceIp: freshIp() });
    lines = [];
    const flow = step.body.secondFactor.flow;
    expect((await call('recoveryCodeSignIn', { body: { flow, code: 'AAAA-AAAA-AAAA-AAAA' } })).status).toBe(400);
    expect((await call('recoveryCodeSignIn', { body: { flow, code: recoveryCodes![0]! } })).status).toBe(200);
    expect(events()).toEqual([
      expect.objectContaining({ security_event: 'recovery_code_failed', user_id: user.id, level: 'WARN' }),
      expect.objectContaining({ security_event: 'recovery_code_used', user_id: user.id, level: 'INFO', codes_left: 9 }),
    ]);
    expect(JSON.stringify(lines)).not.toContain(recoveryCodes![0]!);

    lines = [];
    expect((await call('removePasskey', { token: user.token, params: { id } })).status).toBe(200);
    expect(events()).toEqual([expect.objectContaining({ security_event: 'passkey_removed', user_id: user.id, level: 'INFO' })]);
  });

  it('an account deletion: refused with a wrong password, limited, done', async () => {
    const user = await registerUser();
    lines = [];
    const del = (password: string, token = user.token) => call('deleteAccount', { token, body: { password } });
    expect((await del('wrong-password-1')).status).toBe(400);
    expect(events()).toEqual([expect.objectContaining({ security_event: 'account_delete_failed', user_id: user.id, level: 'WARN' })]);
    lines = [];
    expect((await del(user.password)).status).toBe(200);
    expect(events()).toEqual([expect.objectContaining({ security_event: 'account_deleted', user_id: user.id, level: 'INFO' })]);
    expect(JSON.stringify(lines)).not.toContain(user.password);
    const other = await registerUser();
    let status = 400;
    for (let i = 0; i < 10 && status === 400; i++) status = (await del(`guess-${i}-wrong`, other.token)).status;
    expect(status).toBe(429);
    expect(names().at(-1)).toBe('account_delete_rate_limited');
  });

  it('a logout', async () => {
    const user = await registerUser();
    lines = [];
    expect((await call('logout', { token: user.token })).status).toBe(200);
    expect(events()).toEqual([expect.objectContaining({ security_event: 'logout', user_id: user.id, level: 'INFO' })]);
  });

  it('a sign out everywhere', async () => {
    const user = await registerUser();
    lines = [];
    expect((await call('logoutEverywhere', { token: user.token })).status).toBe(200);
    expect(events()).toEqual([expect.objectContaining({ security_event: 'logout_everywhere', user_id: user.id, level: 'INFO' })]);
  });

  it('a session of an earlier version moved into the cookie', async () => {
    const user = await registerUser();
    lines = [];
    const legacy = await legacyToken(user.id);
    expect((await call('exchangeSession', { token: legacy })).status).toBe(200);
    expect(events()).toEqual([expect.objectContaining({ security_event: 'session_exchanged', user_id: user.id, level: 'INFO' })]);
  });

  it('a request from another site refused, with the route and the address', async () => {
    const user = await registerUser();
    lines = [];
    const ip = freshIp();
    expect((await call('logout', { cookie: user.token, headers: { 'sec-fetch-site': 'cross-site' }, sourceIp: ip })).status).toBe(403);
    expect(events()).toEqual([expect.objectContaining({ security_event: 'cross_site_refused', route: 'logout', source_ip: ip, level: 'WARN' })]);
  });

  it('maintenance-password attempts: wrong, right, and refused past the limit', async () => {
    await setSiteSettings({ devPasswordHash: await hashPassword('open-sesame-42', 12) });
    const ip = freshIp();
    const check = (password: string) => call('checkDevPassword', { body: { password }, sourceIp: ip });
    expect((await check('guess-1')).body).toEqual({ success: false });
    expect((await check('open-sesame-42')).body).toMatchObject({ success: true });
    expect(names()).toEqual(['dev_password_failed', 'dev_password_accepted']);
    expect(JSON.stringify(lines)).not.toContain('open-sesame-42');
    let status = 200;
    for (let i = 0; i < 20 && status === 200; i++) status = (await check('guess-2')).status;
    expect(status).toBe(429);
    expect(names().at(-1)).toBe('dev_password_rate_limited');
  });

  it('nothing at LOG_LEVEL=silent; without a namespace, the line without the metric', async () => {
    vi.stubEnv('LOG_LEVEL', 'silent');
    await call('login', { body: { email: 'nobody@example.com', password: 'whatever-123' }, sourceIp: freshIp() });
    expect(events()).toEqual([]);
    vi.stubEnv('LOG_LEVEL', 'error');
    vi.stubEnv('METRICS_NAMESPACE', '');
    await call('login', { body: { email: 'nobody@example.com', password: 'whatever-123' }, sourceIp: freshIp() });
    expect(events()).toHaveLength(1);
    expect(events()[0]).not.toHaveProperty('_aws');
    expect(events()[0]).not.toHaveProperty('SecurityEvents');
  });

  it('every security event is written by one of the cases above', () => {
    expect([...seen].sort()).toEqual([...SECURITY_EVENTS].sort());
  });
});
