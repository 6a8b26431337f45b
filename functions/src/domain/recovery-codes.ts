import { createHash, randomInt } from 'node:crypto';

/** Crockford's base32 (no I, L, O, U): nothing to misread when typed from paper. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const GROUPS = 4;
const GROUP_LENGTH = 4;

/** A recovery code: 16 random base32 characters (80 bits) in four groups, `7K3M-Q9XD-2F8B-TW4H`. */
export function newRecoveryCode(): string {
  const groups: string[] = [];
  for (let g = 0; g < GROUPS; g++) {
    let group = '';
    for (let i = 0; i < GROUP_LENGTH; i++) group += ALPHABET[randomInt(ALPHABET.length)];
    groups.push(group);
  }
  return groups.join('-');
}

/** A typed code as stored: upper case, without spaces or dashes, the letters base32 reads as digits (O, I, L) as those. */
export function normaliseRecoveryCode(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
}

/**
 * A code's stored form: SHA-256 of the user's id and the normalised code, hex. 80 random bits
 * need no slow hash, and the id makes one user's hashes useless against another's.
 */
export function hashRecoveryCode(userId: string, code: string): string {
  return createHash('sha256').update(`${userId}:${normaliseRecoveryCode(code)}`).digest('hex');
}
