import { isWeakPassword } from '../domain/password-strength.ts';
import { badRequest } from './errors.ts';
import { isBreachedPassword } from './pwned-passwords.ts';

/**
 * The rules every new password meets, the same at register, reset and change (its length is the
 * request schema's): not too easy to guess (zxcvbn, with the user's name and email as guessable
 * words), and not in a known data breach (Pwned Passwords; skipped when that service is down).
 * Throws a 400 with code `password_weak` or `password_breached`.
 */
export async function assertAcceptablePassword(password: string, userInputs: readonly string[] = []): Promise<void> {
  if (await isWeakPassword(password, userInputs)) {
    throw badRequest('This password is too easy to guess: it is common or follows a simple pattern. Choose a longer, less predictable one.', 'password_weak');
  }
  if (await isBreachedPassword(password)) {
    throw badRequest('This password has appeared in a data breach, so attackers try it. Choose another one.', 'password_breached');
  }
}
