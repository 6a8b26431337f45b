import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { VERIFY_RESEND_LIMIT } from '@app/shared/constants';
import { db, tableName } from '../src/db/client.ts';
import { keys } from '../src/db/keys.ts';
import { passwordResetAddress } from '../src/domain/users.ts';
import { call, outbox, registerUser } from './call.ts';

/** The tokens of the verification links mailed to an address, oldest first. */
async function links(email: string): Promise<string[]> {
  return (await outbox())
    .filter((m) => m.to === email && m.subject === 'Confirm your email address')
    .map((m) => /\/verify-email#([A-Za-z0-9_-]{43})/.exec(m.text)![1]!);
}

const me = async (token: string) => (await call<{ emailVerified: boolean }>('getMe', { token })).body;

describe('email verification', () => {
  it('sign-up mails a link; opening it verifies the address, once', async () => {
    const u = await registerUser();
    expect(await me(u.token)).toMatchObject({ emailVerified: false });
    const [token] = await links(u.email);
    expect(token).toBeDefined();
    const mail = (await outbox()).find((m) => m.to === u.email)!;
    expect(mail.text).toContain(`http://localhost:3000/verify-email#${token}`);

    expect((await call('verifyEmail', { body: { token } })).body).toEqual({ ok: true });
    expect(await me(u.token)).toMatchObject({ emailVerified: true });
    const again = await call('verifyEmail', { body: { token } });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'verify_link_invalid' });
    // Nothing of the token is left: not the token, not its pointer.
    const item = await db().send(new GetCommand({ TableName: tableName(), Key: keys.user(u.id), ConsistentRead: true }));
    expect(typeof item.Item!.emailVerifiedAt).toBe('string');
  });

  it('refuses a made-up, malformed or expired token with 400 and changes nothing', async () => {
    const u = await registerUser();
    expect((await call('verifyEmail', { body: { token: 'A'.repeat(43) } })).status).toBe(400);
    expect((await call('verifyEmail', { body: { token: 'short' } })).status).toBe(400);
    expect((await call('verifyEmail', { body: {} })).status).toBe(400);
    const [token] = await links(u.email);
    const { createHash } = await import('node:crypto');
    const hash = createHash('sha256').update(token!).digest('hex');
    await db().send(new UpdateCommand({ TableName: tableName(), Key: keys.singleUseToken('VERIFY', hash), UpdateExpression: 'SET expiresAt = :past', ExpressionAttributeValues: { ':past': 1 } }));
    expect((await call('verifyEmail', { body: { token } })).status).toBe(400);
    expect(await me(u.token)).toMatchObject({ emailVerified: false });
  });

  it('a link verifies only the address it was mailed to', async () => {
    const u = await registerUser();
    const [token] = await links(u.email);
    // The account's address is no longer the one the link went to.
    await db().send(new UpdateCommand({ TableName: tableName(), Key: keys.user(u.id), UpdateExpression: 'SET email = :e', ExpressionAttributeValues: { ':e': `other-${u.email}` } }));
    expect((await call('verifyEmail', { body: { token } })).status).toBe(400);
    const item = await db().send(new GetCommand({ TableName: tableName(), Key: keys.user(u.id), ConsistentRead: true }));
    expect(item.Item!.emailVerifiedAt).toBeUndefined();
  });

  it('resend: a new link, limited per user; none once verified', async () => {
    const u = await registerUser();
    for (let i = 0; i < VERIFY_RESEND_LIMIT; i++) expect((await call('resendVerification', { token: u.token })).status).toBe(200);
    const limited = await call('resendVerification', { token: u.token });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'verify_rate_limited' });
    const tokens = await links(u.email);
    expect(tokens).toHaveLength(1 + VERIFY_RESEND_LIMIT);
    // Any live link works; then resending is refused as done.
    expect((await call('verifyEmail', { body: { token: tokens[1] } })).status).toBe(200);
    // The limit is per user: another account still gets its link.
    expect((await call('resendVerification', { token: (await registerUser()).token })).status).toBe(200);
    const verified = await call('resendVerification', { token: u.token });
    expect(verified.status).toBe(409);
    expect(verified.body).toMatchObject({ code: 'already_verified' });
    expect((await call('resendVerification', {})).status).toBe(401);
  });

  it('sends the link in the language of sign-up', async () => {
    const res = await call<{ user: { email: string } }>('register', {
      body: { name: 'Bea', email: `bea-${Date.now()}@example.com`, password: 'correct-horse-9', recaptchaToken: 'test-pass', language: 'es' },
    });
    const mail = (await outbox()).filter((m) => m.to === res.body.user.email).at(-1)!;
    expect(mail.subject).toBe('Confirma tu correo');
  });
});

describe('password reset address', () => {
  it('goes to a verified address, else only to the address the account was created with', () => {
    expect(passwordResetAddress({ email: 'new@x.com', emailVerifiedAt: '2026-01-01T00:00:00Z', createdWithEmail: 'old@x.com' })).toBe('new@x.com');
    expect(passwordResetAddress({ email: 'new@x.com', createdWithEmail: 'old@x.com' })).toBe('old@x.com');
    // Accounts made before the creation address was recorded never changed their address.
    expect(passwordResetAddress({ email: 'same@x.com' })).toBe('same@x.com');
  });

  it('forgot-password mails an unverified account at the address it was created with', async () => {
    const u = await registerUser();
    expect((await call('forgotPassword', { body: { email: u.email, recaptchaToken: 'test-pass' } })).status).toBe(200);
    const reset = (await outbox()).filter((m) => m.subject === 'Reset your password' && m.to === u.email);
    expect(reset).toHaveLength(1);
  });
});
