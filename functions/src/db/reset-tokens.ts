import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { RESET_TOKEN_TTL_SECONDS } from '@app/shared/constants';
import { db, isConditionFailure, nowIso, nowSeconds, tableName } from './client.ts';
import { keys } from './keys.ts';
import { passwordChange } from './users.ts';

/** A password-reset token, stored only as its SHA-256 (PK RESET#hash), valid one hour. */
export interface ResetToken {
  userId: string;
  /** The user's tokenVersion when issued: a reset bumps it, so older tokens stop working. */
  tokenVersion: number;
  expiresAt: number;
}

/**
 * Stores the token, and beside it under the user a pointer with the same expiry, so deleting the
 * account finds every token of the user (db/accounts.ts).
 */
export async function putResetToken(tokenHash: string, userId: string, tokenVersion: number): Promise<void> {
  const now = nowIso();
  const expiresAt = nowSeconds() + RESET_TOKEN_TTL_SECONDS;
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.resetTokenOfUser(userId, tokenHash), type: 'resetTokenPointer', expiresAt, createdAt: now, updatedAt: now },
    }),
  );
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.resetToken(tokenHash),
        type: 'resetToken',
        userId,
        tokenVersion,
        expiresAt,
        createdAt: now,
        updatedAt: now,
      },
    }),
  );
}

/** A live token (TTL deletion is lazy, so expiry is checked here). */
export async function getResetToken(tokenHash: string): Promise<ResetToken | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.resetToken(tokenHash), ConsistentRead: true }));
  const item = out.Item as (ResetToken & Record<string, unknown>) | undefined;
  if (!item || item.expiresAt <= nowSeconds()) return undefined;
  return { userId: item.userId, tokenVersion: item.tokenVersion, expiresAt: item.expiresAt };
}

/**
 * Spends the token and sets the password in one transaction. Returns false when the
 * token was already used, expired, or outdated by another reset (exactly one of
 * concurrent uses succeeds).
 */
export async function consumeResetToken(tokenHash: string, token: ResetToken, passwordHash: string): Promise<boolean> {
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: tableName(),
              Key: keys.resetToken(tokenHash),
              ConditionExpression: 'attribute_exists(PK) AND expiresAt > :now',
              ExpressionAttributeValues: { ':now': nowSeconds() },
            },
          },
          passwordChange(token.userId, passwordHash, token.tokenVersion),
          { Delete: { TableName: tableName(), Key: keys.resetTokenOfUser(token.userId, tokenHash) } },
        ],
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}
