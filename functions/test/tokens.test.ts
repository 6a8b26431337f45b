import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '../src/lib/auth.ts';
import { call, registerUser } from './call.ts';

const key = () => new TextEncoder().encode(process.env.JWT_SECRET!);

/** Signs `claims` with a session's id and sign-in time (now) besides, so only what a case changes is wrong. */
async function sign(claims: Record<string, unknown>, build: (j: SignJWT) => SignJWT, alg = 'HS256') {
  const session = { sid: 'attack-session-id', auth_time: Math.floor(Date.now() / 1000) - 10 };
  return build(new SignJWT({ ...session, ...claims }).setProtectedHeader({ alg }).setIssuedAt()).sign(key());
}

describe('token attacks all answer 401', () => {
  it('accepts the genuine token (control)', async () => {
    const u = await registerUser();
    expect((await call('getMe', { token: u.token })).status).toBe(200);
    // The helper's own token is good: each case below fails for its one change.
    const good = await sign({ tv: 0 }, (j) => j.setSubject(u.id).setIssuer(TOKEN_ISSUER).setAudience(TOKEN_AUDIENCE).setExpirationTime('1h'));
    expect((await call('getMe', { token: good })).status).toBe(200);
  });

  it.each<[string, (sub: string) => Promise<string>]>([
    ['alg none', async (sub) => new UnsecuredJWT({ tv: 0 }).setSubject(sub).setIssuer(TOKEN_ISSUER).setAudience(TOKEN_AUDIENCE).setExpirationTime('1h').encode()],
    ['another algorithm (HS512)', (sub) => sign({ tv: 0 }, (j) => j.setSubject(sub).setIssuer(TOKEN_ISSUER).setAudience(TOKEN_AUDIENCE).setExpirationTime('1h'), 'HS512')],
    ['wrong issuer', (sub) => sign({ tv: 0 }, (j) => j.setSubject(sub).setIssuer('evil').setAudience(TOKEN_AUDIENCE).setExpirationTime('1h'))],
    ['wrong audience', (sub) => sign({ tv: 0 }, (j) => j.setSubject(sub).setIssuer(TOKEN_ISSUER).setAudience('other').setExpirationTime('1h'))],
    ['missing exp', (sub) => sign({ tv: 0 }, (j) => j.setSubject(sub).setIssuer(TOKEN_ISSUER).setAudience(TOKEN_AUDIENCE))],
    ['past exp', (sub) => sign({ tv: 0 }, (j) => j.setSubject(sub).setIssuer(TOKEN_ISSUER).setAudience(TOKEN_AUDIENCE).setExpirationTime(Math.floor(Date.now() / 1000) - 60))],
    ['missing sub', () => sign({ tv: 0 }, (j) => j.setIssuer(TOKEN_ISSUER).setAudience(TOKEN_AUDIENCE).setExpirationTime('1h'))],
    ['missing sid', (sub) => sign({ tv: 0, sid: undefined }, (j) => j.setSubject(sub).setIssuer(TOKEN_ISSUER).setAudience(TOKEN_AUDIENCE).setExpirationTime('1h'))],
    ['missing auth_time (a token of an earlier version)', (sub) => sign({ tv: 0, auth_time: undefined }, (j) => j.setSubject(sub).setIssuer(TOKEN_ISSUER).setAudience(TOKEN_AUDIENCE).setExpirationTime('1h'))],
    ['a sign-in time after the signing', (sub) => sign({ tv: 0, auth_time: Math.floor(Date.now() / 1000) + 3600 }, (j) => j.setSubject(sub).setIssuer(TOKEN_ISSUER).setAudience(TOKEN_AUDIENCE).setExpirationTime('1h'))],
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
