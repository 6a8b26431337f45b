import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { VERIFY_TOKEN_TTL_SECONDS } from '@app/shared/constants';
import { db, isConditionFailure, nowIso, tableName } from './client.ts';
import { keys } from './keys.ts';
import { getToken, putToken, spendTokenItems } from './single-use-tokens.ts';

/**
 * An email verification token (a single-use token of kind VERIFY: db/single-use-tokens.ts), valid
 * VERIFY_TOKEN_TTL_SECONDS, for the address it was mailed to.
 */
export interface VerifyToken {
  userId: string;
  /** The address the link was mailed to: only that address is verified by it. */
  email: string;
  expiresAt: number;
}

export async function putVerifyToken(tokenHash: string, userId: string, email: string): Promise<void> {
  await putToken('VERIFY', tokenHash, { userId, email }, VERIFY_TOKEN_TTL_SECONDS);
}

/** A live token. */
export async function getVerifyToken(tokenHash: string): Promise<VerifyToken | undefined> {
  const token = await getToken<{ userId: string; email: string }>('VERIFY', tokenHash);
  return token && { userId: token.userId, email: token.email, expiresAt: token.expiresAt };
}

/**
 * Spends the token and marks the address verified, in one transaction: only while the token is
 * live and the account's address is still the one it was mailed to. False otherwise (used,
 * expired, another address, no account).
 */
export async function consumeVerifyToken(tokenHash: string, token: VerifyToken): Promise<boolean> {
  const now = nowIso();
  const [spend, ...pointer] = spendTokenItems('VERIFY', tokenHash, token.userId);
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          spend!,
          {
            Update: {
              TableName: tableName(),
              Key: keys.user(token.userId),
              UpdateExpression: 'SET emailVerifiedAt = if_not_exists(emailVerifiedAt, :at), updatedAt = :at',
              ConditionExpression: 'attribute_exists(PK) AND email = :email',
              ExpressionAttributeValues: { ':at': now, ':email': token.email },
            },
          },
          ...pointer,
        ],
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}
