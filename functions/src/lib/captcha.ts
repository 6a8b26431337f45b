import { TEST_CAPTCHA_TOKEN } from '@app/shared/constants';
import { env } from './env.ts';
import { badRequest, HttpError } from './errors.ts';
import { log } from './log.ts';
import { secrets } from './secrets.ts';

/**
 * The bot check (reCAPTCHA-compatible). With a secret configured the token is verified
 * by the provider; without one, locally (CAPTCHA_MODE=test) only `test-pass` is accepted,
 * and deployed (CAPTCHA_MODE=recaptcha) every request is refused.
 */
export async function verifyCaptcha(token: string, remoteIp: string): Promise<void> {
  const { recaptchaSecret } = await secrets();
  if (!recaptchaSecret && env().CAPTCHA_MODE === 'recaptcha') {
    // Deployed without its secret: fail closed rather than accept the test token.
    log.error('captcha: CAPTCHA_MODE is recaptcha but no recaptchaSecret is configured');
    throw new HttpError(503, 'captcha not configured');
  }
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
