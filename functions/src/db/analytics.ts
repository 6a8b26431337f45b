import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { AnalyticsRequest } from '@app/shared/schemas/site';
import { ulid } from 'ulid';
import { db, nowIso, nowSeconds, tableName } from './client.ts';
import { keys } from './keys.ts';

/** How long a visit is kept before DynamoDB's TTL removes it. */
export const ANALYTICS_RETENTION_DAYS = 400;

/** One site visit (PK ANALYTICS#yyyy-mm-dd, SK ulid), removed by TTL after the retention period. */
export interface Visit extends AnalyticsRequest {
  id: string;
  /** Set when the visitor sent a valid session token. */
  userId?: string;
  createdAt: string;
  expiresAt: number;
}

/** `yyyy-mm-dd` (UTC) of an ISO timestamp: the partition a visit lands in. */
export const visitDay = (iso: string) => iso.slice(0, 10);

export async function recordVisit(payload: AnalyticsRequest, userId?: string): Promise<Visit> {
  const now = nowIso();
  const visit: Visit = {
    id: ulid(),
    ...payload,
    userId,
    createdAt: now,
    expiresAt: nowSeconds() + ANALYTICS_RETENTION_DAYS * 24 * 60 * 60,
  };
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.analyticsVisit(visitDay(now), visit.id), type: 'analyticsVisit', ...visit, updatedAt: now },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
  return visit;
}

/** The first `limit` visits of one UTC day (`yyyy-mm-dd`), oldest first (reporting and tests). */
export async function listVisits(day: string, limit = 1000): Promise<Visit[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.analyticsPk(day) },
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map((item) => {
    const { PK: _pk, SK: _sk, type: _type, updatedAt: _u, ...visit } = item;
    return visit as Visit;
  });
}
