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

/** The item of a window: its scope and the key's hash (db/accounts.ts deletes a user's by these). */
export const rateLimitKey = (scope: string, key: string) => keys.rateLimit(scope, createHash('sha256').update(key).digest('hex').slice(0, 32));

/** Counts one hit; refuses it (changing nothing) when the window already holds `limit` hits. */
export async function hitRateLimit(scope: string, key: string, rule: RateRule): Promise<RateOutcome> {
  const Key = rateLimitKey(scope, key);
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
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: rateLimitKey(scope, key), ConsistentRead: true }));
  const now = nowSeconds();
  const item = out.Item as { count: number; expiresAt: number } | undefined;
  if (!item || item.expiresAt <= now) return { allowed: true, count: 0 };
  if (item.count < rule.limit) return { allowed: true, count: item.count };
  return { allowed: false, secondsLeft: Math.max(1, item.expiresAt - now) };
}

export async function clearRateLimit(scope: string, key: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: rateLimitKey(scope, key) }));
}

/** A save the meter took, or why it refused it and for how long. */
export type MeterOutcome = { allowed: true } | { allowed: false; reason: 'rate' | 'quota'; secondsLeft: number };

/**
 * One user's autosave meter, one item per UTC day (PK RATE#autosave#sha256(user#day), expiring
 * the day after): the saves of the current minute, at most `perMinute`, and, when `dailyChars` is
 * given, the characters of the day, at most that. One conditional write per save (both limits on
 * one item); a refused save changes nothing.
 */
export async function meterAutosave(userId: string, chars: number, perMinute: number, dailyChars?: number): Promise<MeterOutcome> {
  const now = nowSeconds();
  let minute = Math.floor(now / 60);
  const dayEnd = (Math.floor(now / 86_400) + 1) * 86_400;
  const day = new Date((dayEnd - 86_400) * 1000).toISOString().slice(0, 10);
  const quota = (): MeterOutcome => ({ allowed: false, reason: 'quota', secondsLeft: dayEnd - now });
  if (dailyChars !== undefined && chars > dailyChars) return quota();
  const Key = rateLimitKey('autosave', `${userId}#${day}`);
  const room = dailyChars === undefined ? '' : ' AND (attribute_not_exists(#chars) OR #chars <= :room)';
  const names = { '#minute': 'minute', '#saves': 'saves', '#chars': 'chars' };
  for (let attempt = 0; attempt < 3; attempt++) {
    const values = { ':m': minute, ':c': chars, ':iso': nowIso(), ...(dailyChars === undefined ? {} : { ':room': dailyChars - chars }) };
    try {
      // The minute's next save.
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key,
          UpdateExpression: 'SET #saves = #saves + :one, #chars = #chars + :c, updatedAt = :iso',
          ConditionExpression: `#minute = :m AND #saves < :limit${room}`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: { ...values, ':one': 1, ':limit': perMinute },
        }),
      );
      return { allowed: true };
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
    try {
      // The first save of a minute (or of the day).
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key,
          UpdateExpression: 'SET #minute = :m, #saves = :one, #chars = if_not_exists(#chars, :zero) + :c, #type = :type, expiresAt = :expires, updatedAt = :iso',
          ConditionExpression: `(attribute_not_exists(#minute) OR #minute < :m)${room}`,
          ExpressionAttributeNames: { ...names, '#type': 'type' },
          ExpressionAttributeValues: { ...values, ':one': 1, ':zero': 0, ':type': 'autosaveMeter', ':expires': dayEnd + 86_400 },
        }),
      );
      return { allowed: true };
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
    // Both refused: the limits, or another save began the minute in between (then try again).
    const item = (await db().send(new GetCommand({ TableName: tableName(), Key, ConsistentRead: true }))).Item as
      | { minute?: number; saves?: number; chars?: number }
      | undefined;
    if (dailyChars !== undefined && (item?.chars ?? 0) + chars > dailyChars) return quota();
    if (item?.minute === minute && (item.saves ?? 0) >= perMinute) return { allowed: false, reason: 'rate', secondsLeft: 60 - (now % 60) };
    // A save that read the clock just before a minute began, and reached the table after another
    // save began that minute, counts in it: the next attempt is in the item's minute.
    if (item?.minute !== undefined && item.minute > minute) minute = item.minute;
  }
  return { allowed: false, reason: 'rate', secondsLeft: 1 };
}
