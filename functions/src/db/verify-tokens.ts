import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { VERIFY_TOKEN_TTL_SECONDS } from '@app/shared/constants';
import { db, isConditionFailure, nowIso, nowSeconds, tableName } from './client.ts';
import { keys } from './keys.ts';

/**
 * An email verification token, stored only as its SHA-256 (PK VERIFY#hash), valid
 * VERIFY_TOKEN_TTL_SECONDS, for the address it was mailed to. A pointer under the user with the
 * same expiry lets deleting the account find it.
 */
export interface VerifyToken {
  userId: string;
  /** The address the link was mailed to: only that address is verified by it. */
  email: string;
  expiresAt: number;
}

export async function putVerifyToken(tokenHash: string, userId: string, email: string): Promise<void> {
  const now = nowIso();
  const expiresAt = nowSeconds() + VERIFY_TOKEN_TTL_SECONDS;
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.verifyTokenOfUser(userId, tokenHash), type: 'verifyTokenPointer', expiresAt, createdAt: now, updatedAt: now },
    }),
  );
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.verifyToken(tokenHash), type: 'verifyToken', userId, email, expiresAt, createdAt: now, updatedAt: now },
    }),
  );
}

/** A live token (TTL deletion is lazy, so expiry is checked here). */
export async function getVerifyToken(tokenHash: string): Promise<VerifyToken | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.verifyToken(tokenHash), ConsistentRead: true }));
  const item = out.Item as (VerifyToken & Record<string, unknown>) | undefined;
  if (!item || item.expiresAt <= nowSeconds()) return undefined;
  return { userId: item.userId, email: item.email, expiresAt: item.expiresAt };
}

/**
 * Spends the token and marks the address verified, in one transaction: only while the token is
 * live and the account's address is still the one it was mailed to. False otherwise (used,
 * expired, another address, no account).
 */
export async function consumeVerifyToken(tokenHash: string, token: VerifyToken): Promise<boolean> {
  const now = nowIso();
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: tableName(),
              Key: keys.verifyToken(tokenHash),
              ConditionExpression: 'attribute_exists(PK) AND expiresAt > :now',
              ExpressionAttributeValues: { ':now': nowSeconds() },
            },
          },
          {
            Update: {
              TableName: tableName(),
              Key: keys.user(token.userId),
              UpdateExpression: 'SET emailVerifiedAt = if_not_exists(emailVerifiedAt, :at), updatedAt = :at',
              ConditionExpression: 'attribute_exists(PK) AND email = :email',
              ExpressionAttributeValues: { ':at': now, ':email': token.email },
            },
          },
          { Delete: { TableName: tableName(), Key: keys.verifyTokenOfUser(token.userId, tokenHash) } },
        ],
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}
