import { describe, expect, it } from 'vitest';
import { CAPTCHA_ACTIONS } from '@app/shared/constants';
import { verifyCaptcha } from '../src/lib/captcha.ts';
import { HttpError } from '../src/lib/errors.ts';
import { CAPTCHA_SITE, useCaptchaProvider } from './captcha-provider.ts';

const good = { success: true, score: 0.9, action: 'login', hostname: CAPTCHA_SITE };

describe('the bot check with a secret', () => {
  const provider = useCaptchaProvider();

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
    ['no score', { success: true, action: 'login', hostname: CAPTCHA_SITE }],
  ])('refuses a token %s with 400 captcha_failed', async (_, answer) => {
    provider(answer);
    const refusal = await verifyCaptcha('token', '203.0.113.7', CAPTCHA_ACTIONS.login).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(HttpError);
    expect(refusal).toMatchObject({ status: 400, extra: { code: 'captcha_failed' } });
  });
});
