import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CAPTCHA_ACTIONS } from '@app/shared/constants';
import { verifyCaptcha } from './captcha.ts';
import { resetEnv } from './env.ts';
import { HttpError } from './errors.ts';
import { resetSecrets } from './secrets.ts';

/** What the provider answers (siteverify), and what it was asked. */
function provider(answer: Record<string, unknown>) {
  const asked: URLSearchParams[] = [];
  vi.stubGlobal('fetch', async (_url: string, init: { body: URLSearchParams }) => {
    asked.push(init.body);
    return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
  });
  return asked;
}

const good = { success: true, score: 0.9, action: 'login', hostname: 'app.example.org' };
const saved = { secret: process.env.RECAPTCHA_SECRET, appUrl: process.env.APP_URL };

describe('the bot check with a secret', () => {
  beforeEach(() => {
    process.env.RECAPTCHA_SECRET = 'test-secret';
    process.env.APP_URL = 'https://app.example.org';
    resetEnv();
    resetSecrets();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    for (const [key, value] of [['RECAPTCHA_SECRET', saved.secret], ['APP_URL', saved.appUrl]] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    resetEnv();
    resetSecrets();
  });

  it("passes a token made on this site for this form, with a person's score, and sends the viewer's address", async () => {
    const asked = provider(good);
    await expect(verifyCaptcha('token', '203.0.113.7', CAPTCHA_ACTIONS.login)).resolves.toBeUndefined();
    expect(Object.fromEntries(asked[0]!)).toEqual({ secret: 'test-secret', response: 'token', remoteip: '203.0.113.7' });
  });

  it.each([
    ['refused by the provider', { ...good, success: false }],
    ['made on another site', { ...good, hostname: 'evil.example.com' }],
    ['made for another form', { ...good, action: 'register' }],
    ['a low score', { ...good, score: 0.3 }],
    ['no score', { success: true, action: 'login', hostname: 'app.example.org' }],
  ])('refuses a token %s with 400 captcha_failed', async (_, answer) => {
    provider(answer);
    const refusal = await verifyCaptcha('token', '203.0.113.7', CAPTCHA_ACTIONS.login).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(HttpError);
    expect(refusal).toMatchObject({ status: 400, extra: { code: 'captcha_failed' } });
  });
});
