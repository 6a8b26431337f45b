import type { Plan } from '@app/shared/constants';

/**
 * Billing rules: what a verified Stripe event means for the plan, decided from the event
 * payload alone (no call back to Stripe), so tests, the local simulator and production agree.
 *
 * The plan follows the user's subscriptions, each tracked on its own (a user may hold more than
 * one): the user is Pro while any subscription is active, until the latest period end among them.
 *
 * - checkout.session.completed (subscription, paid): its subscription active until one billing
 *   interval after the event (provisional: the subscription events that follow carry the exact
 *   period end). Records the customer; closes the user's open checkout.
 * - checkout.session.expired: closes the user's open checkout.
 * - customer.subscription.created|updated: active/trialing → active until the period end, renewing
 *   unless set to cancel then (`cancel_at_period_end`, or a `cancel_at` date);
 *   canceled/incomplete_expired → ended for good; unpaid/paused → ended (Stripe may resume them);
 *   past_due and incomplete → no change (a past-due user keeps Pro until the period already paid).
 * - customer.subscription.deleted → ended for good.
 * - invoice.paid (subscription invoice) → active until the end of the period it paid for.
 * - invoice.payment_failed → no change (same as past_due).
 * - anything else → ignored.
 *
 * Ordering, per subscription: an event changes a subscription's state only when it is newer than
 * the event that set that state: a later `created` second, or, within the same second, what
 * Stripe's data says of the lifecycle (subscriptionOrder). A subscription that ended for good
 * never becomes active again, as in Stripe.
 */

/**
 * The plan a set of subscriptions gives; `null` expiry only with free. `planRenews` false: every
 * active subscription is set to cancel at its period end, so Pro ends at `planExpiry`.
 */
export type PlanChange =
  | { plan: Extract<Plan, 'pro'>; planExpiry: string; planRenews: boolean }
  | { plan: Extract<Plan, 'free'>; planExpiry: null; planRenews: false };

/**
 * Within one `created` second, how far along its lifecycle an event shows a subscription: the
 * provisional checkout, then a paid invoice, then the subscription's own active state, then
 * suspended (unpaid, paused), then ended for good (canceled, expired, deleted).
 */
export const LIFECYCLE = { checkout: 0, invoicePaid: 1, active: 2, suspended: 3, final: 4 } as const;

/** One subscription as the webhook last recorded it (a map entry on the user, by subscription id). */
export interface SubscriptionState {
  /** active: Pro until `end`; ended: gives nothing. */
  status: 'active' | 'ended';
  /** Period end (epoch seconds) for an active subscription, else null. */
  end: number | null;
  /** Active and not set to cancel at the period end (Stripe's `cancel_at_period_end`). */
  renews: boolean;
  /** Stripe's `created` second of the event that set this state. */
  at: number;
  /** LIFECYCLE rank of that event. */
  rank: number;
}

export type BillingDecision =
  | { action: 'ignore'; reason: string }
  | {
      action: 'apply';
      eventId: string;
      eventType: string;
      /** Stripe's `created` (epoch seconds). */
      eventCreated: number;
      /**
       * How to find the user: 'reference' trusts `userId` (checkout's client_reference_id);
       * 'customer' looks the customer up first and falls back to `userId` (our own metadata).
       */
      lookup: 'reference' | 'customer';
      userId: string | undefined;
      customerId: string | undefined;
      /** The subscription state this event sets; null: only record the customer. */
      subscription: { id: string; state: SubscriptionState } | null;
      /** A checkout session that is no longer open (completed or expired). */
      closesCheckout?: string;
    };

/** The minimal event shape this module reads (a verified `Stripe.Event` fits). */
export interface StripeEventLike {
  id: string;
  type: string;
  created: number;
  data: { object: unknown };
}

export const HANDLED_EVENT_TYPES = [
  'checkout.session.completed',
  'checkout.session.expired',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
] as const;

const PRO_STATUSES = new Set(['active', 'trialing']);
const FINAL_STATUSES = new Set(['canceled', 'incomplete_expired']);
const SUSPENDED_STATUSES = new Set(['unpaid', 'paused']);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);
/** A Stripe reference: an id string or an expanded object with an id. */
const ref = (v: unknown): string | undefined => str(v) ?? (isObj(v) ? str(v.id) : undefined);
const metaUserId = (v: unknown): string | undefined => (isObj(v) ? str(v.userId) : undefined);
const list = (v: unknown): unknown[] => (isObj(v) && Array.isArray(v.data) ? v.data : []);

export const isoFromSeconds = (seconds: number) => new Date(seconds * 1000).toISOString();

/** One month (the billing interval of every price in PRICES) after `seconds`, as ISO: the provisional expiry at checkout. */
export function oneIntervalAfter(seconds: number): string {
  const d = new Date(seconds * 1000);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d.toISOString();
}

/**
 * The subscription's current period end in epoch seconds. Stripe API 2025-03+ moved it to the
 * items (`items.data[].current_period_end`); older versions have it on the subscription.
 */
export function subscriptionPeriodEnd(sub: Readonly<Obj>): number | undefined {
  const ends = list(sub.items)
    .map((item) => (isObj(item) ? num(item.current_period_end) : undefined))
    .filter((n): n is number => n !== undefined);
  return ends.length ? Math.max(...ends) : num(sub.current_period_end);
}

/** The end of the service period an invoice paid for: the latest line period end. */
function invoicePeriodEnd(invoice: Obj): number | undefined {
  const ends = list(invoice.lines)
    .map((line) => (isObj(line) && isObj(line.period) ? num(line.period.end) : undefined))
    .filter((n): n is number => n !== undefined);
  return ends.length ? Math.max(...ends) : undefined;
}

/** The subscription an invoice belongs to and its metadata: API 2025+ `parent.subscription_details`, else legacy fields. */
function invoiceSubscription(invoice: Obj): { subscriptionId?: string; metadata?: unknown } {
  const parent = isObj(invoice.parent) ? invoice.parent : {};
  const details = isObj(parent.subscription_details) ? parent.subscription_details : undefined;
  if (details) return { subscriptionId: ref(details.subscription), metadata: details.metadata };
  const legacy = isObj(invoice.subscription_details) ? invoice.subscription_details : {};
  return { subscriptionId: ref(invoice.subscription), metadata: legacy.metadata };
}

const ignore = (reason: string): BillingDecision => ({ action: 'ignore', reason });

const active = (at: number, rank: number, end: number, renews = true): SubscriptionState => ({ status: 'active', end, renews, at, rank });
const ended = (at: number, rank: number): SubscriptionState => ({ status: 'ended', end: null, renews: false, at, rank });

/** Decides what a verified event does. Pure: same payload, same answer. */
export function decideBilling(event: StripeEventLike): BillingDecision {
  const object = event.data?.object;
  const created = num(event.created);
  if (!isObj(object) || !str(event.id) || created === undefined) return ignore('malformed event');
  const base = { action: 'apply' as const, eventId: event.id, eventType: event.type, eventCreated: created };

  switch (event.type) {
    case 'checkout.session.completed': {
      if (object.mode !== 'subscription') return ignore('not a subscription checkout');
      const userId = str(object.client_reference_id) ?? metaUserId(object.metadata);
      if (!userId) return ignore('checkout without client_reference_id');
      const customerId = ref(object.customer);
      const closesCheckout = str(object.id);
      const paid = object.payment_status === 'paid' || object.payment_status === 'no_payment_required';
      // Stripe always names the subscription of a subscription checkout; the session id stands in otherwise.
      const subscriptionId = ref(object.subscription) ?? closesCheckout;
      // Unpaid (asynchronous payment still pending): link the customer; the subscription events decide the plan.
      if (!paid || !subscriptionId) {
        return customerId || closesCheckout ? { ...base, lookup: 'reference', userId, customerId, subscription: null, closesCheckout } : ignore('checkout not paid');
      }
      const provisionalEnd = Math.floor(Date.parse(oneIntervalAfter(created)) / 1000);
      return { ...base, lookup: 'reference', userId, customerId, closesCheckout, subscription: { id: subscriptionId, state: active(created, LIFECYCLE.checkout, provisionalEnd) } };
    }

    case 'checkout.session.expired': {
      const userId = str(object.client_reference_id) ?? metaUserId(object.metadata);
      const closesCheckout = str(object.id);
      if (!userId || !closesCheckout) return ignore('expired checkout without user');
      return { ...base, lookup: 'reference', userId, customerId: undefined, subscription: null, closesCheckout };
    }

    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const subscriptionId = str(object.id);
      const customerId = ref(object.customer);
      const userId = metaUserId(object.metadata);
      if (!subscriptionId) return ignore('subscription without id');
      if (!customerId && !userId) return ignore('subscription without customer');
      const state = subscriptionState(object, created, event.type === 'customer.subscription.deleted');
      if (!state) return ignore(`subscription ${str(object.status) ?? 'without status'}: plan unchanged until expiry`);
      return { ...base, lookup: 'customer', userId, customerId, subscription: { id: subscriptionId, state } };
    }

    case 'invoice.paid': {
      const { subscriptionId, metadata } = invoiceSubscription(object);
      if (!subscriptionId) return ignore('invoice not for a subscription');
      const customerId = ref(object.customer);
      const userId = metaUserId(metadata);
      const end = invoicePeriodEnd(object);
      if (!end) return ignore('invoice without a service period');
      if (!customerId && !userId) return ignore('invoice without customer');
      return { ...base, lookup: 'customer', userId, customerId, subscription: { id: subscriptionId, state: active(created, LIFECYCLE.invoicePaid, end) } };
    }

    case 'invoice.payment_failed':
      return ignore('payment failed: plan unchanged until expiry (Stripe retries, then updates the subscription)');

    default:
      return ignore(`unhandled event type ${event.type}`);
  }
}

/**
 * What a Stripe subscription object (an event's, or the API's answer to a change) says of it at
 * `at` (epoch seconds): `deleted` or canceled/incomplete_expired → ended for good; unpaid/paused →
 * ended; active/trialing → active until the period end, renewing unless set to cancel then
 * (`cancel_at_period_end`, or a `cancel_at` date); anything else (past_due, incomplete) →
 * undefined: no change.
 */
export function subscriptionState(object: Readonly<Record<string, unknown>>, at: number, deleted = false): SubscriptionState | undefined {
  const status = str(object.status) ?? '';
  if (deleted || FINAL_STATUSES.has(status)) return ended(at, LIFECYCLE.final);
  if (SUSPENDED_STATUSES.has(status)) return ended(at, LIFECYCLE.suspended);
  if (!PRO_STATUSES.has(status)) return undefined;
  const end = subscriptionPeriodEnd(object) ?? Math.floor(Date.parse(oneIntervalAfter(at)) / 1000);
  const renews = object.cancel_at_period_end !== true && !num(object.cancel_at);
  return active(at, LIFECYCLE.active, end, renews);
}

/**
 * The subscriptions a renewal resumes: active, their period not over at `nowSeconds`, and set to
 * cancel at its end. Their ids with the recorded states.
 */
export function subscriptionsToResume(subscriptions: Readonly<Record<string, SubscriptionState>>, nowSeconds: number): [string, SubscriptionState & { end: number }][] {
  return Object.entries(subscriptions).filter(
    (entry): entry is [string, SubscriptionState & { end: number }] => entry[1].status === 'active' && entry[1].end !== null && entry[1].end > nowSeconds && entry[1].renews === false,
  );
}

/**
 * Whether `incoming` is newer than the recorded state of the same subscription: a later second,
 * or in the same second a later lifecycle stage, or the same stage with a later period end.
 * A subscription that ended for good stays ended.
 */
export function isNewerState(incoming: SubscriptionState, recorded: SubscriptionState | undefined): boolean {
  if (!recorded) return true;
  if (recorded.rank === LIFECYCLE.final) return false;
  if (incoming.at !== recorded.at) return incoming.at > recorded.at;
  if (incoming.rank !== recorded.rank) return incoming.rank > recorded.rank;
  return (incoming.end ?? 0) > (recorded.end ?? 0);
}

/**
 * The plan the user's subscriptions give: Pro until the latest end among the active ones, renewing
 * if any of them renews; else free.
 */
export function planFromSubscriptions(subscriptions: Readonly<Record<string, SubscriptionState>>): PlanChange {
  let latest: number | undefined;
  let renews = false;
  for (const s of Object.values(subscriptions)) {
    if (s.status !== 'active' || s.end === null) continue;
    if (latest === undefined || s.end > latest) latest = s.end;
    // Records written before renewal was tracked have no `renews`: they renewed.
    if (s.renews !== false) renews = true;
  }
  return latest === undefined ? { plan: 'free', planExpiry: null, planRenews: false } : { plan: 'pro', planExpiry: isoFromSeconds(latest), planRenews: renews };
}
