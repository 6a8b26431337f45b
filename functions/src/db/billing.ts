import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isNewerState, planFromSubscriptions, type PlanChange, type SubscriptionState } from '../domain/billing.ts';
import { db, isConditionFailure, nowIso, nowSeconds, tableName } from './client.ts';
import { keys } from './keys.ts';

/**
 * Billing state on the user item (USER#id / PROFILE):
 *   stripeCustomerId, GSI1PK = STRIPE#<customerId>, GSI1SK = USER  (find the user by customer)
 *   subscriptions   map: Stripe subscription id -> SubscriptionState (plan, planExpiry and planRenews derive from it)
 *   billingVersion  bumped by every plan write (optimistic concurrency of the read-modify-write)
 *   planWrites      how many times billing has set the plan: an event, or a renewal's answer from Stripe (audit; tests count it)
 *   checkoutId, checkoutUrl, checkoutCurrency, checkoutUntil (epoch s)   the open checkout, if any
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

export interface SubscriptionWrite {
  userId: string;
  /** Recorded on the user in the same write when given. */
  customerId: string | undefined;
  subscription: { id: string; state: SubscriptionState };
  /** The user's billing state as the caller just read it (resolveBillingUser): the first attempt starts from it instead of reading again. */
  userState?: BillingState;
}

export interface BillingWrite extends SubscriptionWrite {
  eventId: string;
  eventType: string;
  eventCreated: number;
}

/** applied: the plan was written; duplicate: this event was processed before; stale: a newer event already set that subscription. */
export type BillingOutcome = 'applied' | 'duplicate' | 'stale';

/**
 * Records one subscription's new state and the plan all of the user's subscriptions now give,
 * in ONE transaction with the event's idempotency record:
 *   Put STRIPE_EVENT#id      if attribute_not_exists(PK)                 (a replay changes nothing)
 *   Update the user          if billingVersion is the one read            (no lost update between events)
 * An event older than the subscription's recorded state still records the customer id, so the
 * portal works whatever the delivery order. Version races and transaction conflicts (concurrent
 * deliveries) are retried from the read; other failures propagate (5xx: Stripe retries).
 */
export async function applySubscriptionEvent(w: BillingWrite): Promise<BillingOutcome> {
  return (await writeSubscriptionState(w, () => eventRecord(w))).outcome;
}

/**
 * Records a subscription's state that the API had from Stripe itself (Stripe's answer to a change
 * the API asked for), and the plan all of the user's subscriptions now give: as
 * applySubscriptionEvent records an event's, in the same order of states, with no event to
 * remember. Also returns that plan (the one already recorded when the state is stale).
 */
export async function recordSubscriptionState(w: SubscriptionWrite): Promise<{ outcome: Exclude<BillingOutcome, 'duplicate'>; plan: PlanChange }> {
  const { outcome, plan } = await writeSubscriptionState(w, undefined);
  return { outcome: outcome === 'duplicate' ? 'stale' : outcome, plan };
}

/** The read-modify-write of both: the user's update, in one transaction with the event's record when there is one. */
async function writeSubscriptionState(
  w: SubscriptionWrite,
  event: (() => ReturnType<typeof eventRecord>) | undefined,
): Promise<{ outcome: BillingOutcome; plan: PlanChange }> {
  for (let attempt = 1; ; attempt++) {
    const current = attempt === 1 && w.userState ? w.userState : await billingState(w.userId);
    if (!current) return { outcome: 'stale', plan: planFromSubscriptions({}) };
    const recorded = current.subscriptions[w.subscription.id];
    if (!isNewerState(w.subscription.state, recorded)) {
      if (w.customerId && current.stripeCustomerId !== w.customerId) await linkCustomer(w.userId, w.customerId);
      return { outcome: 'stale', plan: planFromSubscriptions(current.subscriptions) };
    }
    const subscriptions = { ...current.subscriptions, [w.subscription.id]: w.subscription.state };
    const update = planUpdate(w, subscriptions, current.billingVersion);
    try {
      await db().send(new TransactWriteCommand({ TransactItems: event ? [event(), update] : [update] }));
      return { outcome: 'applied', plan: planFromSubscriptions(subscriptions) };
    } catch (err) {
      const reasons = cancellationCodes(err);
      if (!reasons) throw err;
      if (event && reasons[0] === 'ConditionalCheckFailed') return { outcome: 'duplicate', plan: planFromSubscriptions(current.subscriptions) };
      const raced = reasons[event ? 1 : 0] === 'ConditionalCheckFailed' || reasons.includes('TransactionConflict');
      if (raced && attempt < CONFLICT_RETRIES) {
        await new Promise((r) => setTimeout(r, 25 * attempt + Math.random() * 50));
        continue;
      }
      throw err;
    }
  }
}

export interface BillingState {
  subscriptions: Record<string, SubscriptionState>;
  billingVersion: number | undefined;
  stripeCustomerId: string | undefined;
}

/** The billing attributes of the user item (strongly consistent: the next write is conditional on them). */
async function billingState(userId: string): Promise<BillingState | undefined> {
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.user(userId),
      ConsistentRead: true,
      ProjectionExpression: 'id, subscriptions, billingVersion, stripeCustomerId',
    }),
  );
  if (!out.Item) return undefined;
  return {
    subscriptions: (out.Item.subscriptions ?? {}) as Record<string, SubscriptionState>,
    billingVersion: out.Item.billingVersion as number | undefined,
    stripeCustomerId: out.Item.stripeCustomerId as string | undefined,
  };
}

/** How long an open checkout blocks another: Stripe's shortest session life (`expires_at`), 30 minutes. */
export const CHECKOUT_OPEN_SECONDS = 30 * 60;

export type CheckoutHold = { held: true } | { held: false; currency: string | undefined; url: string | undefined; secondsLeft: number };

/**
 * Marks a checkout as open for the user until `until`, unless one already is: of two concurrent
 * checkouts one holds. A checkout being created has no url yet (recordCheckout adds it).
 */
export async function holdCheckout(userId: string, currency: string, until: number): Promise<CheckoutHold> {
  const now = nowSeconds();
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.user(userId),
        UpdateExpression: 'SET checkoutUntil = :until, checkoutCurrency = :cur, updatedAt = :now REMOVE checkoutId, checkoutUrl',
        ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(checkoutUntil) OR checkoutUntil <= :t)',
        ExpressionAttributeValues: { ':until': until, ':cur': currency, ':t': now, ':now': nowIso() },
      }),
    );
    return { held: true };
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.user(userId), ConsistentRead: true, ProjectionExpression: 'checkoutUntil, checkoutUrl, checkoutCurrency' }),
  );
  const until_ = (out.Item?.checkoutUntil as number | undefined) ?? now;
  return { held: false, currency: out.Item?.checkoutCurrency as string | undefined, url: out.Item?.checkoutUrl as string | undefined, secondsLeft: Math.max(1, until_ - now) };
}

/** Records the created session on the held checkout. */
export async function recordCheckout(userId: string, checkoutId: string, url: string): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.user(userId),
      UpdateExpression: 'SET checkoutId = :id, checkoutUrl = :url, updatedAt = :now',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':id': checkoutId, ':url': url, ':now': nowIso() },
    }),
  );
}

/**
 * Closes the user's open checkout: `checkoutId` given, only if it is that one (a completed or
 * expired session never closes a newer checkout); omitted, whatever is open (creation failed).
 */
export async function releaseCheckout(userId: string, checkoutId?: string): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.user(userId),
        UpdateExpression: 'SET updatedAt = :now REMOVE checkoutId, checkoutUrl, checkoutCurrency, checkoutUntil',
        ConditionExpression: checkoutId ? 'checkoutId = :id' : 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':now': nowIso(), ...(checkoutId ? { ':id': checkoutId } : {}) },
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err; // another checkout, or none: nothing to close
  }
}

/**
 * Finds the user for an event: by customer id first, then by our own userId (metadata), which
 * must exist. The user item read to check that comes back as `state`, so applying the event
 * starts from it instead of reading the user again.
 */
export async function resolveBillingUser(
  lookup: 'reference' | 'customer',
  userId: string | undefined,
  customerId: string | undefined,
): Promise<{ userId: string; state?: BillingState } | undefined> {
  if (lookup === 'customer' && customerId) {
    const byCustomer = await findUserIdByCustomer(customerId);
    if (byCustomer) return { userId: byCustomer };
  }
  if (!userId) return undefined;
  const state = await billingState(userId);
  return state && { userId, state };
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

function planUpdate(w: SubscriptionWrite, subscriptions: Record<string, SubscriptionState>, version: number | undefined) {
  const change = planFromSubscriptions(subscriptions);
  const sets = ['#plan = :plan', 'planExpiry = :expiry', 'planRenews = :renews', 'subscriptions = :subs', 'billingVersion = :next', 'updatedAt = :now'];
  const values: Record<string, unknown> = {
    ':plan': change.plan,
    ':expiry': change.planExpiry,
    ':renews': change.planRenews,
    ':subs': subscriptions,
    ':next': (version ?? 0) + 1,
    ':now': nowIso(),
    ':one': 1,
  };
  if (version !== undefined) values[':version'] = version;
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
      ConditionExpression: `attribute_exists(PK) AND ${version === undefined ? 'attribute_not_exists(billingVersion)' : 'billingVersion = :version'}`,
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
