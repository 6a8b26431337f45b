import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, nowIso, nowSeconds, tableName } from './client.ts';
import { keys, type SingleUseTokenKind } from './keys.ts';

/**
 * A single-use token or challenge, stored only under its SHA-256 (PK `<KIND>#<hash>`, SK `<KIND>`),
 * live until `expiresAt` (the table's TTL attribute; TTL deletion is lazy, so every read checks
 * it). A token issued to a user has beside it, under the user, a pointer with the same expiry
 * (`USER#<id> / <KIND>#<hash>`), so deleting the account finds it (db/accounts.ts); spending the
 * token deletes both. Password-reset tokens, email-verification tokens and passkey challenges are
 * all kept this way.
 */

/** The item `type` of each kind (the pointer's is the same with `Pointer`). */
const TYPES: Record<SingleUseTokenKind, string> = { RESET: 'resetToken', VERIFY: 'verifyToken', WEBAUTHN: 'passkeyChallenge' };

type Data = Record<string, unknown> & { userId?: string };
export type LiveToken<T extends Data> = T & { expiresAt: number };

/** Stores a token (the pointer first, so a token never exists without it). */
export async function putToken(kind: SingleUseTokenKind, hash: string, data: Data, ttlSeconds: number): Promise<void> {
  const now = nowIso();
  const expiresAt = nowSeconds() + ttlSeconds;
  const type = TYPES[kind];
  if (data.userId !== undefined) {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.singleUseTokenOfUser(data.userId, kind, hash), type: `${type}Pointer`, expiresAt, createdAt: now, updatedAt: now },
      }),
    );
  }
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...data, ...keys.singleUseToken(kind, hash), type, expiresAt, createdAt: now, updatedAt: now },
    }),
  );
}

const dataOf = <T extends Data>(item: Record<string, unknown>): LiveToken<T> => {
  const { PK: _pk, SK: _sk, type: _type, createdAt: _c, updatedAt: _u, ...rest } = item;
  return rest as LiveToken<T>;
};

/** A live token's data (consistent read), or undefined when there is none or it has expired. */
export async function getToken<T extends Data>(kind: SingleUseTokenKind, hash: string): Promise<LiveToken<T> | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.singleUseToken(kind, hash), ConsistentRead: true }));
  if (!out.Item || (out.Item.expiresAt as number) <= nowSeconds()) return undefined;
  return dataOf<T>(out.Item);
}

/**
 * The transaction items that spend a live token (with what else the spending writes): its delete,
 * on condition that it is still there and live, and its pointer's. Exactly one of concurrent
 * spends succeeds.
 */
export function spendTokenItems(kind: SingleUseTokenKind, hash: string, userId: string | undefined) {
  return [
    {
      Delete: {
        TableName: tableName(),
        Key: keys.singleUseToken(kind, hash),
        ConditionExpression: 'attribute_exists(PK) AND expiresAt > :now',
        ExpressionAttributeValues: { ':now': nowSeconds() },
      },
    },
    ...(userId === undefined ? [] : [{ Delete: { TableName: tableName(), Key: keys.singleUseTokenOfUser(userId, kind, hash) } }]),
  ];
}

/**
 * Spends a token on its own and answers its data: one conditional delete, so a second use (a
 * replay) or an expired token answers undefined. Its pointer goes after it.
 */
export async function takeToken<T extends Data>(kind: SingleUseTokenKind, hash: string): Promise<LiveToken<T> | undefined> {
  let item: Record<string, unknown> | undefined;
  try {
    const out = await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.singleUseToken(kind, hash),
        ConditionExpression: 'attribute_exists(PK) AND expiresAt > :now',
        ExpressionAttributeValues: { ':now': nowSeconds() },
        ReturnValues: 'ALL_OLD',
      }),
    );
    item = out.Attributes;
  } catch (err) {
    if (isConditionFailure(err)) return undefined;
    throw err;
  }
  if (!item) return undefined;
  const data = dataOf<T>(item);
  if (data.userId !== undefined) {
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.singleUseTokenOfUser(data.userId, kind, hash) }));
  }
  return data;
}
