import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import { db, isConditionFailure, nowIso, nowSeconds, tableName } from './client.ts';
import { keys } from './keys.ts';

/** A fixed-window counter (PK RATE#scope#sha256(key)); the window ends at `expiresAt`. */
export interface RateRule {
  limit: number;
  windowSeconds: number;
}
/** An allowed hit tells how many the window holds now, this one included. */
export type RateOutcome = { allowed: true; count: number } | { allowed: false; secondsLeft: number };

const keyOf = (scope: string, key: string) => keys.rateLimit(scope, createHash('sha256').update(key).digest('hex').slice(0, 32));

/** Counts one hit; refuses it (changing nothing) when the window already holds `limit` hits. */
export async function hitRateLimit(scope: string, key: string, rule: RateRule): Promise<RateOutcome> {
  const Key = keyOf(scope, key);
  for (let attempt = 0; attempt < 2; attempt++) {
    const now = nowSeconds();
    try {
      const out = await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key,
          UpdateExpression: 'SET #count = #count + :one, updatedAt = :iso',
          ConditionExpression: 'attribute_exists(PK) AND expiresAt > :now AND #count < :limit',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':one': 1, ':now': now, ':limit': rule.limit, ':iso': nowIso() },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return { allowed: true, count: out.Attributes?.count as number };
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
    try {
      await db().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...Key, type: 'rateLimit', count: 1, expiresAt: now + rule.windowSeconds, createdAt: nowIso(), updatedAt: nowIso() },
          ConditionExpression: 'attribute_not_exists(PK) OR expiresAt <= :now',
          ExpressionAttributeValues: { ':now': now },
        }),
      );
      return { allowed: true, count: 1 };
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
  }
  return peekRateLimit(scope, key, rule);
}

/** Whether the next hit would be refused, without counting one. */
export async function peekRateLimit(scope: string, key: string, rule: RateRule): Promise<RateOutcome> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keyOf(scope, key), ConsistentRead: true }));
  const now = nowSeconds();
  const item = out.Item as { count: number; expiresAt: number } | undefined;
  if (!item || item.expiresAt <= now) return { allowed: true, count: 0 };
  if (item.count < rule.limit) return { allowed: true, count: item.count };
  return { allowed: false, secondsLeft: Math.max(1, item.expiresAt - now) };
}

export async function clearRateLimit(scope: string, key: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: keyOf(scope, key) }));
}
