import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
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
