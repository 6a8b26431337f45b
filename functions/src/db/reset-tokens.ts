import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { RESET_TOKEN_TTL_SECONDS } from '@app/shared/constants';
import { db, isConditionFailure } from './client.ts';
import { getToken, putToken, spendTokenItems } from './single-use-tokens.ts';
import { passwordChange } from './users.ts';

/** A password-reset token (a single-use token of kind RESET: db/single-use-tokens.ts), valid one hour. */
export interface ResetToken {
  userId: string;
  /** The user's tokenVersion when issued: a reset bumps it, so older tokens stop working. */
  tokenVersion: number;
  expiresAt: number;
}

export async function putResetToken(tokenHash: string, userId: string, tokenVersion: number): Promise<void> {
  await putToken('RESET', tokenHash, { userId, tokenVersion }, RESET_TOKEN_TTL_SECONDS);
}

/** A live token. */
export async function getResetToken(tokenHash: string): Promise<ResetToken | undefined> {
  const token = await getToken<{ userId: string; tokenVersion: number }>('RESET', tokenHash);
  return token && { userId: token.userId, tokenVersion: token.tokenVersion, expiresAt: token.expiresAt };
}

/**
 * Spends the token and sets the password in one transaction. Returns false when the
 * token was already used, expired, or outdated by another reset (exactly one of
 * concurrent uses succeeds).
 */
export async function consumeResetToken(tokenHash: string, token: ResetToken, passwordHash: string): Promise<boolean> {
  const [spend, ...pointer] = spendTokenItems('RESET', tokenHash, token.userId);
  try {
    await db().send(new TransactWriteCommand({ TransactItems: [spend!, passwordChange(token.userId, passwordHash, token.tokenVersion), ...pointer] }));
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}
