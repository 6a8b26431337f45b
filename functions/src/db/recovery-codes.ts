import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, nowIso, tableName } from './client.ts';
import { keys } from './keys.ts';

/**
 * A user's recovery codes, one item (PK USER#<userId>, SK RECOVERY): `codes` maps each code's hash
 * (domain/recovery-codes.ts) to 0 while unused, or to when it was used (milliseconds since the
 * epoch). Making new codes replaces the item whole.
 */
export async function putRecoveryCodes(userId: string, hashes: string[]): Promise<void> {
  const now = nowIso();
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.recoveryCodes(userId), type: 'recoveryCodes', userId, codes: Object.fromEntries(hashes.map((h) => [h, 0])), createdAt: now, updatedAt: now },
    }),
  );
}

/** How many of the user's recovery codes are unused (0 when they have none). */
export async function countRecoveryCodesLeft(userId: string): Promise<number> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.recoveryCodes(userId), ConsistentRead: true }));
  const codes = (out.Item?.codes ?? {}) as Record<string, number>;
  return Object.values(codes).filter((usedAt) => usedAt === 0).length;
}

/**
 * Spends one code by its hash: one conditional write, so a code works once, whatever the race.
 * Its use is recorded (when); false when the user has no such unused code.
 */
export async function useRecoveryCode(userId: string, hash: string): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.recoveryCodes(userId),
        UpdateExpression: 'SET codes.#hash = :now, lastUsedAt = :iso, updatedAt = :iso',
        ConditionExpression: 'codes.#hash = :unused',
        ExpressionAttributeNames: { '#hash': hash },
        ExpressionAttributeValues: { ':now': Date.now(), ':iso': nowIso(), ':unused': 0 },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

export async function deleteRecoveryCodes(userId: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.recoveryCodes(userId) }));
}
