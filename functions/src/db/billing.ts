import { QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PlanChange } from '../domain/billing.ts';
import { db, isConditionFailure, nowIso, nowSeconds, tableName } from './client.ts';
import { keys } from './keys.ts';
import { getUser } from './users.ts';

/**
 * Billing state on the user item (USER#id / PROFILE):
 *   stripeCustomerId, GSI1PK = STRIPE#<customerId>, GSI1SK = USER  (find the user by customer)
 *   planEventAt  Stripe `created` (epoch s) of the event that last set the plan (ordering)
 *   planWrites   how many times a billing event has set the plan (audit; tests count it)
 * and one idempotency item per processed event: STRIPE_EVENT#<id> / EVENT, TTL 30 days.
 */

/** How long a processed event id is remembered (Stripe retries for 3 days). */
export const STRIPE_EVENT_TTL_SECONDS = 30 * 24 * 60 * 60;
const CONFLICT_RETRIES = 4;

/** The user holding this Stripe customer id (GSI1 query; eventually consistent). */
export async function findUserIdByCustomer(customerId: string): Promise<string | undefined> {
  const k = keys.stripeCustomer(customerId);
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK = :sk',
      ExpressionAttributeValues: { ':pk': k.GSI1PK, ':sk': k.GSI1SK },
      ProjectionExpression: 'id',
    }),
  );
  return out.Items?.[0]?.id as string | undefined;
}

/** Records the Stripe customer on the user (and its GSI1 key). */
export async function linkCustomer(userId: string, customerId: string): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.user(userId),
        UpdateExpression: 'SET stripeCustomerId = :cus, GSI1PK = :g1pk, GSI1SK = :g1sk, updatedAt = :now',
        ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(stripeCustomerId) OR stripeCustomerId <> :cus)',
        ExpressionAttributeValues: { ':cus': customerId, ':g1pk': keys.stripeCustomer(customerId).GSI1PK, ':g1sk': keys.stripeCustomer(customerId).GSI1SK, ':now': nowIso() },
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err; // already linked (or no such user): nothing to do
  }
}

export interface BillingWrite {
  eventId: string;
  eventType: string;
  eventCreated: number;
  userId: string;
  /** Recorded on the user in the same write when given. */
  customerId: string | undefined;
  change: PlanChange;
}

/** applied: the plan changed; duplicate: this event was processed before; stale: a newer event already set the plan. */
export type BillingOutcome = 'applied' | 'duplicate' | 'stale';

/**
 * Applies a plan change in ONE transaction with the event's idempotency record:
 *   Put STRIPE_EVENT#id            if attribute_not_exists(PK)            (a replay changes nothing)
 *   Update the user's plan         if planEventAt is absent or older     (an older event changes nothing)
 * A stale event still records the customer id, so the portal works whatever the delivery order.
 * Transaction conflicts (concurrent deliveries) are retried; other failures propagate (5xx: Stripe retries).
 */
export async function applyPlanChange(w: BillingWrite): Promise<BillingOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db().send(new TransactWriteCommand({ TransactItems: [eventRecord(w), planUpdate(w)] }));
      return 'applied';
    } catch (err) {
      const reasons = cancellationCodes(err);
      if (!reasons) throw err;
      if (reasons[0] === 'ConditionalCheckFailed') return 'duplicate';
      if (reasons[1] === 'ConditionalCheckFailed') {
        if (w.customerId) await linkCustomer(w.userId, w.customerId);
        return 'stale';
      }
      if (reasons.includes('TransactionConflict') && attempt < CONFLICT_RETRIES) {
        await new Promise((r) => setTimeout(r, 25 * attempt + Math.random() * 50));
        continue;
      }
      throw err;
    }
  }
}

/** Finds the user for an event: by customer id first, then by our own userId (metadata), which must exist. */
export async function resolveBillingUser(lookup: 'reference' | 'customer', userId: string | undefined, customerId: string | undefined): Promise<string | undefined> {
  if (lookup === 'customer' && customerId) {
    const byCustomer = await findUserIdByCustomer(customerId);
    if (byCustomer) return byCustomer;
  }
  if (!userId) return undefined;
  return (await getUser(userId)) ? userId : undefined;
}

function eventRecord(w: BillingWrite) {
  const now = nowIso();
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.stripeEvent(w.eventId),
        type: 'stripeEvent',
        eventType: w.eventType,
        eventCreated: w.eventCreated,
        userId: w.userId,
        createdAt: now,
        updatedAt: now,
        expiresAt: nowSeconds() + STRIPE_EVENT_TTL_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

function planUpdate(w: BillingWrite) {
  const sets = ['#plan = :plan', 'planExpiry = :expiry', 'planEventAt = :created', 'updatedAt = :now'];
  const values: Record<string, unknown> = {
    ':plan': w.change.plan,
    ':expiry': w.change.planExpiry,
    ':created': w.eventCreated,
    ':now': nowIso(),
    ':one': 1,
  };
  if (w.customerId) {
    const g = keys.stripeCustomer(w.customerId);
    sets.push('stripeCustomerId = :cus', 'GSI1PK = :g1pk', 'GSI1SK = :g1sk');
    Object.assign(values, { ':cus': w.customerId, ':g1pk': g.GSI1PK, ':g1sk': g.GSI1SK });
  }
  return {
    Update: {
      TableName: tableName(),
      Key: keys.user(w.userId),
      UpdateExpression: `SET ${sets.join(', ')} ADD planWrites :one`,
      ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(planEventAt) OR planEventAt < :created)',
      ExpressionAttributeNames: { '#plan': 'plan' },
      ExpressionAttributeValues: values,
    },
  };
}

/** The per-item cancellation codes of a cancelled transaction, or undefined for any other error. */
function cancellationCodes(err: unknown): string[] | undefined {
  if (!(err instanceof Error) || err.name !== 'TransactionCanceledException') return undefined;
  const reasons = (err as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons.map((r) => r.Code ?? 'None');
}
