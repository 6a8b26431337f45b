import { createHash, randomBytes } from 'node:crypto';

/** A reset token: 32 random bytes, base64url (43 characters). Only its hash is stored. */
export function newResetToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashResetToken(token) };
}

export function hashResetToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
