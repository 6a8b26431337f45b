import { decodeJwt, SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { SESSION_TOKEN_HEADER, TOKEN_RENEW_AFTER_SECONDS, TOKEN_TTL_SECONDS } from '@app/shared/constants';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '../src/lib/auth.ts';
import { call, registerUser } from './call.ts';

const key = () => new TextEncoder().encode(process.env.JWT_SECRET!);

async function sign(claims: Record<string, unknown>, build: (j: SignJWT) => SignJWT, alg = 'HS256') {
  return build(new SignJWT(claims).setProtectedHeader({ alg })).sign(key());
}

describe('token attacks all answer 401', () => {
  it('accepts the genuine token (control)', async () => {
    const u = await registerUser();
    expect((await call('getMe', { token: u.token })).status).toBe(200);
  });

  it.each<[string, (sub: string) => Promise<string>]>([
    ['alg none', async (sub) => new UnsecuredJWT({ tv: 0 }).setSubject(sub).setIssuer(TOKEN_ISSUER).setAudience(TOKEN_AUDIENCE).setExpirationTime('1h').encode()],
    ['another algorithm (HS512)', (sub) => sign({ tv: 0 }, (j) => j.setSubject(sub).setIssuer(TOKEN_ISSUER).setAudience(TOKEN_AUDIENCE).setExpirationTime('1h'), 'HS512')],
    ['wrong issuer', (sub) => sign({ tv: 0 }, (j) => j.setSubject(sub).setIssuer('evil').setAudience(TOKEN_AUDIENCE).setExpirationTime('1h'))],
    ['wrong audience', (sub) => sign({ tv: 0 }, (j) => j.setSubject(sub).setIssuer(TOKEN_ISSUER).setAudience('other').setExpirationTime('1h'))],
    ['missing exp', (sub) => sign({ tv: 0 }, (j) => j.setSubject(sub).setIssuer(TOKEN_ISSUER).setAudience(TOKEN_AUDIENCE))],
    ['past exp', (sub) => sign({ tv: 0 }, (j) => j.setSubject(sub).setIssuer(TOKEN_ISSUER).setAudience(TOKEN_AUDIENCE).setExpirationTime(Math.floor(Date.now() / 1000) - 60))],
    ['missing sub', () => sign({ tv: 0 }, (j) => j.setIssuer(TOKEN_ISSUER).setAudience(TOKEN_AUDIENCE).setExpirationTime('1h'))],
    ['wrong token version', (sub) => sign({ tv: 7 }, (j) => j.setSubject(sub).setIssuer(TOKEN_ISSUER).setAudience(TOKEN_AUDIENCE).setExpirationTime('1h'))],
    ['another key', async (sub) => new SignJWT({ tv: 0 }).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setIssuer(TOKEN_ISSUER).setAudience(TOKEN_AUDIENCE).setExpirationTime('1h').sign(new TextEncoder().encode('x'.repeat(40)))],
  ])('%s', async (_name, make) => {
    const u = await registerUser();
    const res = await call('getMe', { token: await make(u.id) });
    expect(res.status).toBe(401);
    expect(res.body.error).toBeTypeOf('string');
  });

  it('a tampered payload', async () => {
    const u = await registerUser();
    const other = await registerUser();
    const [h, , s] = u.token.split('.');
    const payload = Buffer.from(JSON.stringify({ tv: 0, sub: other.id, iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE, exp: 9999999999 })).toString('base64url');
    expect((await call('getMe', { token: `${h}.${payload}.${s}` })).status).toBe(401);
  });
});

describe('the caller before the input', () => {
  it("answers a signed-in route's stranger 401 without reading the body, however large or broken", async () => {
    const broken = `{"sessionId":"${'x'.repeat(5 * 1024 * 1024)}`;
    for (const token of [undefined, 'not-a-token']) {
      const res = await call<{ error: string; code?: string }>('autosaveSave', { token, rawBody: broken });
      expect(res.status).toBe(401);
    }
    // Signed in, the same body is read and refused for what it is.
    const u = await registerUser();
    expect((await call<{ error: string }>('autosaveSave', { token: u.token, rawBody: broken })).body.error).toBe('Request body must be valid JSON');
  });
});

describe('session renewal', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const aged = (sub: string, ageSeconds: number, tv = 0) =>
    sign({ tv }, (j) =>
      j
        .setSubject(sub)
        .setIssuer(TOKEN_ISSUER)
        .setAudience(TOKEN_AUDIENCE)
        .setIssuedAt(now() - ageSeconds)
        .setExpirationTime(now() - ageSeconds + TOKEN_TTL_SECONDS),
    );

  it('signs tokens that live TOKEN_TTL_SECONDS (7 days)', async () => {
    const u = await registerUser();
    const { iat, exp } = decodeJwt(u.token);
    expect(TOKEN_TTL_SECONDS).toBe(7 * 24 * 60 * 60);
    expect(exp! - iat!).toBe(TOKEN_TTL_SECONDS);
  });

  it('sends no new token while the token is younger than TOKEN_RENEW_AFTER_SECONDS', async () => {
    const u = await registerUser();
    const res = await call('getMe', { token: u.token });
    expect(res.status).toBe(200);
    expect(res.headers).not.toHaveProperty(SESSION_TOKEN_HEADER);
    const young = await call('getMe', { token: await aged(u.id, TOKEN_RENEW_AFTER_SECONDS - 60) });
    expect(young.status).toBe(200);
    expect(young.headers).not.toHaveProperty(SESSION_TOKEN_HEADER);
  });

  it('answers an older token with a fresh one in the response header, which works and is not renewed again', async () => {
    const u = await registerUser();
    const res = await call('updateMe', { token: await aged(u.id, TOKEN_RENEW_AFTER_SECONDS + 60), body: { name: 'Renewed' } });
    expect(res.status).toBe(200);
    const fresh = res.headers[SESSION_TOKEN_HEADER];
    expect(typeof fresh).toBe('string');
    const { iat, exp, sub } = decodeJwt(fresh as string);
    expect(sub).toBe(u.id);
    expect(Math.abs(iat! - now())).toBeLessThan(60);
    expect(exp! - iat!).toBe(TOKEN_TTL_SECONDS);
    const next = await call('getMe', { token: fresh as string });
    expect(next).toMatchObject({ status: 200, body: { id: u.id, name: 'Renewed' } });
    expect(next.headers).not.toHaveProperty(SESSION_TOKEN_HEADER);
  });

  it('never renews a refused token: expired, or ended by a logout', async () => {
    const u = await registerUser();
    const expired = await call('getMe', { token: await aged(u.id, TOKEN_TTL_SECONDS + 60) });
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('session_expired');
    expect(expired.headers).not.toHaveProperty(SESSION_TOKEN_HEADER);
    const old = await aged(u.id, TOKEN_RENEW_AFTER_SECONDS + 60);
    expect((await call('logout', { token: u.token })).status).toBe(200);
    const ended = await call('getMe', { token: old });
    expect(ended.status).toBe(401);
    expect(ended.headers).not.toHaveProperty(SESSION_TOKEN_HEADER);
  });

  it('refuses a token older than TOKEN_TTL_SECONDS even when its own exp is later (signed with a longer life)', async () => {
    const u = await registerUser();
    const token = await sign({ tv: 0 }, (j) =>
      j.setSubject(u.id).setIssuer(TOKEN_ISSUER).setAudience(TOKEN_AUDIENCE).setIssuedAt(now() - TOKEN_TTL_SECONDS - 60).setExpirationTime(now() + 86_400),
    );
    const res = await call('getMe', { token });
    expect(res.status).toBe(401);
    expect(res.headers).not.toHaveProperty(SESSION_TOKEN_HEADER);
  });

  it('refuses a token without iat', async () => {
    const u = await registerUser();
    const token = await sign({ tv: 0 }, (j) => j.setSubject(u.id).setIssuer(TOKEN_ISSUER).setAudience(TOKEN_AUDIENCE).setExpirationTime('1h'));
    expect((await call('getMe', { token })).status).toBe(401);
  });
});
