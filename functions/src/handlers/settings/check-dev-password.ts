import { hitRateLimit } from '../../db/rate-limits.ts';
import { getSiteSettings } from '../../db/site-settings.ts';
import { verifyPassword } from '../../domain/passwords.ts';
import { signBypassToken } from '../../lib/auth.ts';
import { tooMany } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';
import { securityEvent } from '../../lib/log.ts';

/** Every check counts, right or wrong, so guessing stays slow and scrypt work stays bounded. */
export const DEV_PASSWORD_RATE = { limit: 10, windowSeconds: 15 * 60 };

/**
 * The maintenance bypass: `{success}` against the stored scrypt hash; none stored means no
 * bypass. A correct password also earns a short-lived bypass token, which lets the API
 * accept this browser's writes while maintenance mode is on.
 */
export const handler = route('checkDevPassword', async ({ body, sourceIp }) => {
  const limit = await hitRateLimit('dev-password', sourceIp, DEV_PASSWORD_RATE);
  if (!limit.allowed) {
    securityEvent('dev_password_rate_limited', { source_ip: sourceIp });
    throw tooMany('Too many password attempts. Please wait and try again.', limit.secondsLeft, 'dev_password_rate_limited');
  }
  const { devPasswordHash } = await getSiteSettings();
  if (!devPasswordHash || !(await verifyPassword(body.password, devPasswordHash))) {
    securityEvent('dev_password_failed', { source_ip: sourceIp });
    return { success: false };
  }
  securityEvent('dev_password_accepted', { source_ip: sourceIp });
  return { success: true, bypassToken: await signBypassToken(devPasswordHash) };
});
