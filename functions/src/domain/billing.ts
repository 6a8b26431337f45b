import type { Plan } from '@app/shared/constants';

/**
 * Billing rules: what a verified Stripe event means for the plan, decided from the event
 * payload alone (no call back to Stripe), so tests, the local simulator and production agree.
 *
 * - checkout.session.completed (subscription, paid): pro until one billing interval after the
 *   event (the subscription events that follow carry the exact period end). Records the customer.
 * - customer.subscription.created|updated: active/trialing → pro until the period end;
 *   canceled/unpaid/incomplete_expired/paused → free; past_due and incomplete → no change
 *   (a past-due user keeps pro until the expiry already recorded).
 * - customer.subscription.deleted → free.
 * - invoice.paid (subscription invoice) → pro until the end of the period it paid for.
 * - invoice.payment_failed → no change (same as past_due).
 * - anything else → ignored.
 *
 * Ordering is by the event's `created` second: the store applies a change only when it is newer
 * than the last one applied (db/billing.ts), so an older event never overwrites newer state.
 */

/** The plan a billing event sets; `null` expiry only with free. */
export type PlanChange = { plan: Extract<Plan, 'pro'>; planExpiry: string } | { plan: Extract<Plan, 'free'>; planExpiry: null };

export type BillingDecision =
  | { action: 'ignore'; reason: string }
  | {
      action: 'apply';
      eventId: string;
      eventType: string;
      /** Stripe's `created` (epoch seconds): the ordering key. */
      eventCreated: number;
      /**
       * How to find the user: 'reference' trusts `userId` (checkout's client_reference_id);
       * 'customer' looks the customer up first and falls back to `userId` (our own metadata).
       */
      lookup: 'reference' | 'customer';
      userId: string | undefined;
      customerId: string | undefined;
      /** null: no plan change, only record the customer on the user. */
      change: PlanChange | null;
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
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
] as const;

const PRO_STATUSES = new Set(['active', 'trialing']);
const FREE_STATUSES = new Set(['canceled', 'unpaid', 'incomplete_expired', 'paused']);

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
export function subscriptionPeriodEnd(sub: Obj): number | undefined {
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

/** Decides what a verified event does to the plan. Pure: same payload, same answer. */
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
      const paid = object.payment_status === 'paid' || object.payment_status === 'no_payment_required';
      // Unpaid (asynchronous payment still pending): link the customer; the subscription events decide the plan.
      if (!paid) return customerId ? { ...base, lookup: 'reference', userId, customerId, change: null } : ignore('checkout not paid');
      return { ...base, lookup: 'reference', userId, customerId, change: { plan: 'pro', planExpiry: oneIntervalAfter(created) } };
    }

    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const customerId = ref(object.customer);
      const userId = metaUserId(object.metadata);
      if (!customerId && !userId) return ignore('subscription without customer');
      const status = str(object.status) ?? '';
      const target = { ...base, lookup: 'customer' as const, userId, customerId };
      if (event.type === 'customer.subscription.deleted' || FREE_STATUSES.has(status)) {
        return { ...target, change: { plan: 'free', planExpiry: null } };
      }
      if (PRO_STATUSES.has(status)) {
        const end = subscriptionPeriodEnd(object);
        return { ...target, change: { plan: 'pro', planExpiry: end ? isoFromSeconds(end) : oneIntervalAfter(created) } };
      }
      return ignore(`subscription ${status || 'without status'}: plan unchanged until expiry`);
    }

    case 'invoice.paid': {
      const { subscriptionId, metadata } = invoiceSubscription(object);
      if (!subscriptionId) return ignore('invoice not for a subscription');
      const customerId = ref(object.customer);
      const userId = metaUserId(metadata);
      const end = invoicePeriodEnd(object);
      if (!end) return ignore('invoice without a service period');
      if (!customerId && !userId) return ignore('invoice without customer');
      return { ...base, lookup: 'customer', userId, customerId, change: { plan: 'pro', planExpiry: isoFromSeconds(end) } };
    }

    case 'invoice.payment_failed':
      return ignore('payment failed: plan unchanged until expiry (Stripe retries, then updates the subscription)');

    default:
      return ignore(`unhandled event type ${event.type}`);
  }
}
