import { createHash } from 'node:crypto';
import { env } from './env.ts';
import { log } from './log.ts';

/** How long a breach lookup may take before the check is skipped. */
export const PWNED_TIMEOUT_MS = 1_500;

/**
 * Have I Been Pwned's Pwned Passwords range query (k-anonymity): only the first 5 hex characters
 * of the password's SHA-1 leave this function; the service answers every known hash suffix of that
 * range (`SUFFIX:COUNT` lines, padded with zero-count lines) and the match is made here.
 * Answers true (breached), false (not found) or undefined when the service could not answer in
 * time: the check is then skipped and the skip logged, so an outage never blocks a password.
 */
export async function isBreachedPassword(password: string): Promise<boolean | undefined> {
  const sha1 = createHash('sha1').update(password, 'utf8').digest('hex').toUpperCase();
  const prefix = sha1.slice(0, 5);
  const suffix = sha1.slice(5);
  const url = `${env().PWNED_PASSWORDS_URL.replace(/\/+$/, '')}/range/${prefix}`;
  try {
    const response = await fetch(url, {
      headers: { 'add-padding': 'true', 'user-agent': 'live-transcribe' },
      signal: AbortSignal.timeout(PWNED_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`status ${response.status}`);
    const body = await response.text();
    for (const line of body.split('\n')) {
      const [hashSuffix, count] = line.trim().split(':');
      if (hashSuffix?.toUpperCase() === suffix) return Number(count) > 0;
    }
    return false;
  } catch (err) {
    log.warn('breached-password check skipped: the service did not answer', {
      error: { message: err instanceof Error ? err.message : String(err) },
    });
    return undefined;
  }
}
