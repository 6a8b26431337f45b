import { CAPTCHA_MIN_SCORE, TEST_CAPTCHA_TOKEN, type CaptchaAction } from '@app/shared/constants';
import { env } from './env.ts';
import { badRequest, HttpError } from './errors.ts';
import { log, securityEvent } from './log.ts';
import { secrets } from './secrets.ts';

/**
 * The bot check (reCAPTCHA v3). With a secret configured the token is verified by the provider:
 * it must be valid, made on this site (the APP_URL's host name) for this form's `action`, with a
 * score of at least CAPTCHA_MIN_SCORE. Without a secret, locally (CAPTCHA_MODE=test) only
 * `test-pass` is accepted, and deployed (CAPTCHA_MODE=recaptcha) every request is refused.
 * `remoteIp` is the viewer's own address (the wrapper's source address, behind CloudFront).
 */
export async function verifyCaptcha(token: string, remoteIp: string, action: CaptchaAction): Promise<void> {
  const { recaptchaSecret } = await secrets();
  if (!recaptchaSecret && env().CAPTCHA_MODE === 'recaptcha') {
    // Deployed without its secret: fail closed rather than accept the test token.
    log.error('captcha: CAPTCHA_MODE is recaptcha but no recaptchaSecret is configured');
    throw new HttpError(503, 'captcha not configured');
  }
  if (!recaptchaSecret) {
    if (token !== TEST_CAPTCHA_TOKEN) refuse(action, remoteIp);
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
    const data = (await res.json()) as { success?: boolean; score?: number; action?: string; hostname?: string };
    const host = new URL(env().APP_URL).hostname;
    ok = data.success === true && data.hostname === host && data.action === action && typeof data.score === 'number' && data.score >= CAPTCHA_MIN_SCORE;
    if (!ok) log.warn('captcha refused', { success: data.success, score: data.score, action: data.action, expectedAction: action, hostname: data.hostname });
  } catch (err) {
    log.warn('captcha verification unavailable', { error: String(err) });
  }
  if (!ok) refuse(action, remoteIp);
}

function refuse(action: CaptchaAction, remoteIp: string): never {
  securityEvent('bot_check_failed', { action, source_ip: remoteIp });
  throw badRequest('The bot check failed. Reload the page and try again.', 'captcha_failed');
}
