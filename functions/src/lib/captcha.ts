import { TEST_CAPTCHA_TOKEN } from '@app/shared/constants';
import { badRequest } from './errors.ts';
import { log } from './log.ts';
import { secrets } from './secrets.ts';

/**
 * The bot check (reCAPTCHA-compatible). With a secret configured the token is verified
 * by the provider; without one (local, tests) only `test-pass` is accepted.
 */
export async function verifyCaptcha(token: string, remoteIp: string): Promise<void> {
  const { recaptchaSecret } = await secrets();
  if (!recaptchaSecret) {
    if (token !== TEST_CAPTCHA_TOKEN) throw badRequest('The bot check failed. Reload the page and try again.', 'captcha_failed');
    return;
  }
  let ok = false;
  try {
    const res = await fetch('https://www.google.com/recaptcha/api/siteverify', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret: recaptchaSecret, response: token, remoteip: remoteIp }),
      signal: AbortSignal.timeout(5000),
    });
    const data = (await res.json()) as { success?: boolean; score?: number };
    ok = data.success === true && (data.score === undefined || data.score >= 0.5);
  } catch (err) {
    log.warn('captcha verification unavailable', { error: String(err) });
  }
  if (!ok) throw badRequest('The bot check failed. Reload the page and try again.', 'captcha_failed');
}
