import { describe, expect, it } from 'vitest';
import {
  decideBilling,
  isNewerState,
  LIFECYCLE,
  oneIntervalAfter,
  planFromSubscriptions,
  subscriptionPeriodEnd,
  subscriptionState,
  subscriptionsToResume,
  type StripeEventLike,
  type SubscriptionState,
} from './billing.ts';

const T = 1_800_000_000; // 2027-01-15T08:00:00Z
const END = T + 30 * 86_400;
const iso = (s: number) => new Date(s * 1000).toISOString();
const secs = (isoText: string) => Math.floor(Date.parse(isoText) / 1000);
const ev = (type: string, object: unknown, created = T): StripeEventLike => ({ id: 'evt_1', type, created, data: { object } });

const subscription = (status: string, extra: Record<string, unknown> = {}) => ({
  id: 'sub_1',
  object: 'subscription',
  customer: 'cus_1',
  status,
  metadata: { userId: 'u1' },
  items: { object: 'list', data: [{ id: 'si_1', current_period_end: END }] },
  ...extra,
});

describe('decideBilling', () => {
  it('a paid subscription checkout makes its subscription active for one month (provisional), names user and customer, closes the checkout', () => {
    const d = decideBilling(ev('checkout.session.completed', {
      id: 'cs_1', object: 'checkout.session', mode: 'subscription', payment_status: 'paid', client_reference_id: 'u1', customer: 'cus_1', subscription: 'sub_1',
    }));
    expect(d).toEqual({
      action: 'apply', eventId: 'evt_1', eventType: 'checkout.session.completed', eventCreated: T,
      lookup: 'reference', userId: 'u1', customerId: 'cus_1', closesCheckout: 'cs_1',
      subscription: { id: 'sub_1', state: { status: 'active', end: secs(oneIntervalAfter(T)), renews: true, at: T, rank: LIFECYCLE.checkout } },
    });
    expect(oneIntervalAfter(T)).toBe('2027-02-15T08:00:00.000Z');
  });

  it('an expired checkout only closes that checkout', () => {
    expect(decideBilling(ev('checkout.session.expired', { id: 'cs_9', object: 'checkout.session', client_reference_id: 'u1' }))).toMatchObject({
      action: 'apply', userId: 'u1', subscription: null, closesCheckout: 'cs_9',
    });
    expect(decideBilling(ev('checkout.session.expired', { id: 'cs_9' })).action).toBe('ignore');
  });

  it('an unpaid checkout only records the customer; a payment-mode checkout or one without a user is ignored', () => {
    const unpaid = decideBilling(ev('checkout.session.completed', { mode: 'subscription', payment_status: 'unpaid', client_reference_id: 'u1', customer: { id: 'cus_1' } }));
    expect(unpaid).toMatchObject({ action: 'apply', userId: 'u1', customerId: 'cus_1', subscription: null });
    expect(decideBilling(ev('checkout.session.completed', { mode: 'payment', payment_status: 'paid', client_reference_id: 'u1' })).action).toBe('ignore');
    expect(decideBilling(ev('checkout.session.completed', { mode: 'subscription', payment_status: 'paid' })).action).toBe('ignore');
  });

  it.each(['active', 'trialing'])('subscription %s is active until the item period end, renewing', (status) => {
    const d = decideBilling(ev('customer.subscription.updated', subscription(status)));
    expect(d).toMatchObject({ action: 'apply', lookup: 'customer', customerId: 'cus_1', userId: 'u1', subscription: { id: 'sub_1', state: { status: 'active', end: END, renews: true, rank: LIFECYCLE.active } } });
  });

  it('a subscription set to cancel at the period end (or on a date) stays active until then without renewing', () => {
    expect(decideBilling(ev('customer.subscription.updated', subscription('active', { cancel_at_period_end: true })))).toMatchObject({ subscription: { state: { status: 'active', end: END, renews: false } } });
    expect(decideBilling(ev('customer.subscription.updated', subscription('active', { cancel_at: END })))).toMatchObject({ subscription: { state: { status: 'active', renews: false } } });
  });

  it('reads the legacy top-level current_period_end when items have none', () => {
    const sub = subscription('active', { items: { data: [{ id: 'si_1' }] }, current_period_end: END + 5 });
    expect(subscriptionPeriodEnd(sub)).toBe(END + 5);
    expect(decideBilling(ev('customer.subscription.created', sub))).toMatchObject({ subscription: { state: { status: 'active', end: END + 5 } } });
  });

  it.each(['canceled', 'incomplete_expired'])('subscription %s ends it for good', (status) => {
    expect(decideBilling(ev('customer.subscription.updated', subscription(status)))).toMatchObject({ subscription: { state: { status: 'ended', end: null, rank: LIFECYCLE.final } } });
  });

  it.each(['unpaid', 'paused'])('subscription %s ends it until Stripe resumes it', (status) => {
    expect(decideBilling(ev('customer.subscription.updated', subscription(status)))).toMatchObject({ subscription: { state: { status: 'ended', rank: LIFECYCLE.suspended } } });
  });

  it('subscription deleted ends it for good whatever the status says', () => {
    expect(decideBilling(ev('customer.subscription.deleted', subscription('active')))).toMatchObject({ subscription: { id: 'sub_1', state: { status: 'ended', rank: LIFECYCLE.final } } });
  });

  it.each(['past_due', 'incomplete'])('subscription %s leaves the plan until its expiry', (status) => {
    expect(decideBilling(ev('customer.subscription.updated', subscription(status))).action).toBe('ignore');
  });

  it('invoice.paid extends pro to the end of the paid period (API 2025+ parent shape and legacy shape)', () => {
    const lines = { data: [{ period: { start: T, end: END } }] };
    const modern = ev('invoice.paid', { object: 'invoice', customer: 'cus_1', lines, parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_1', metadata: { userId: 'u1' } } } });
    expect(decideBilling(modern)).toMatchObject({ lookup: 'customer', customerId: 'cus_1', userId: 'u1', subscription: { id: 'sub_1', state: { status: 'active', end: END, rank: LIFECYCLE.invoicePaid } } });
    const legacy = ev('invoice.paid', { object: 'invoice', customer: 'cus_1', subscription: 'sub_1', lines });
    expect(decideBilling(legacy)).toMatchObject({ customerId: 'cus_1', userId: undefined, subscription: { id: 'sub_1', state: { end: END } } });
    expect(decideBilling(ev('invoice.paid', { object: 'invoice', customer: 'cus_1', lines })).action).toBe('ignore');
  });

  it('invoice.payment_failed, unknown types and malformed events are ignored', () => {
    expect(decideBilling(ev('invoice.payment_failed', { customer: 'cus_1' })).action).toBe('ignore');
    expect(decideBilling(ev('customer.created', { id: 'cus_1' })).action).toBe('ignore');
    expect(decideBilling(ev('customer.subscription.updated', 'nope')).action).toBe('ignore');
    expect(decideBilling({ id: 'evt_1', type: 'customer.subscription.updated', created: 0, data: { object: subscription('active') } }).action).toBe('ignore');
    expect(decideBilling(ev('customer.subscription.updated', { status: 'active' })).action).toBe('ignore');
  });

  it('carries the event created second for ordering', () => {
    expect(decideBilling(ev('customer.subscription.updated', subscription('active'), T + 7))).toMatchObject({ eventCreated: T + 7, subscription: { state: { at: T + 7 } } });
  });
});

describe('subscription ordering and the plan', () => {
  const state = (status: 'active' | 'ended', at: number, rank: number, end: number | null = status === 'active' ? END : null, renews = status === 'active'): SubscriptionState => ({ status, end, renews, at, rank });

  it('a later second wins; an earlier one never overwrites', () => {
    expect(isNewerState(state('ended', T + 1, LIFECYCLE.suspended), state('active', T, LIFECYCLE.active))).toBe(true);
    expect(isNewerState(state('active', T - 1, LIFECYCLE.active), state('ended', T, LIFECYCLE.suspended))).toBe(false);
    expect(isNewerState(state('active', T, LIFECYCLE.checkout), undefined)).toBe(true);
  });

  it('within one second, the later lifecycle stage wins in either arrival order', () => {
    const checkout = state('active', T, LIFECYCLE.checkout, END - 3 * 86_400);
    const created = state('active', T, LIFECYCLE.active, END);
    expect(isNewerState(created, checkout)).toBe(true);
    expect(isNewerState(checkout, created)).toBe(false);
    const deleted = state('ended', T, LIFECYCLE.final);
    expect(isNewerState(deleted, created)).toBe(true);
    expect(isNewerState(created, deleted)).toBe(false);
  });

  it('within one second and stage, the later period end wins; the same state is not newer', () => {
    expect(isNewerState(state('active', T, LIFECYCLE.active, END + 10), state('active', T, LIFECYCLE.active, END))).toBe(true);
    expect(isNewerState(state('active', T, LIFECYCLE.active, END), state('active', T, LIFECYCLE.active, END))).toBe(false);
  });

  it('a subscription ended for good never becomes active again', () => {
    expect(isNewerState(state('active', T + 100, LIFECYCLE.active), state('ended', T, LIFECYCLE.final))).toBe(false);
    expect(isNewerState(state('active', T + 100, LIFECYCLE.active), state('ended', T, LIFECYCLE.suspended))).toBe(true);
  });

  it('Pro while any subscription is active, until the latest end among them', () => {
    expect(planFromSubscriptions({})).toEqual({ plan: 'free', planExpiry: null, planRenews: false });
    expect(planFromSubscriptions({ a: state('ended', T, LIFECYCLE.final) })).toEqual({ plan: 'free', planExpiry: null, planRenews: false });
    expect(planFromSubscriptions({ a: state('ended', T, LIFECYCLE.final), b: state('active', T, LIFECYCLE.active, END) })).toEqual({ plan: 'pro', planExpiry: iso(END), planRenews: true });
    expect(planFromSubscriptions({ a: state('active', T, LIFECYCLE.active, END + 99), b: state('active', T, LIFECYCLE.active, END) })).toEqual({ plan: 'pro', planExpiry: iso(END + 99), planRenews: true });
  });

  it('renews unless every active subscription is set to cancel at its period end', () => {
    expect(planFromSubscriptions({ a: state('active', T, LIFECYCLE.active, END, false) })).toEqual({ plan: 'pro', planExpiry: iso(END), planRenews: false });
    expect(planFromSubscriptions({ a: state('active', T, LIFECYCLE.active, END + 9, false), b: state('active', T, LIFECYCLE.active, END) })).toEqual({ plan: 'pro', planExpiry: iso(END + 9), planRenews: true });
  });
});

describe('renewal', () => {
  const state = (over: Partial<SubscriptionState>): SubscriptionState => ({ status: 'active', end: END, renews: false, at: T, rank: LIFECYCLE.active, ...over });

  it('resumes only the active subscriptions set to cancel at the end of a period not yet over', () => {
    const subscriptions: Record<string, SubscriptionState> = {
      cancelled: state({}),
      renewing: state({ renews: true }),
      over: state({ end: T - 1 }),
      ended: state({ status: 'ended', end: null }),
    };
    expect(subscriptionsToResume(subscriptions, T)).toEqual([['cancelled', subscriptions.cancelled]]);
    // Records written before renewal was tracked have no `renews`: they renew already.
    expect(subscriptionsToResume({ legacy: { status: 'active', end: END, at: T, rank: LIFECYCLE.active } as SubscriptionState }, T)).toEqual([]);
  });

  it("reads Stripe's answer to a renewal as the webhook reads the same subscription in an event", () => {
    const answer = subscription('active', { cancel_at_period_end: false, cancel_at: null });
    expect(subscriptionState(answer, T + 5)).toEqual({ status: 'active', end: END, renews: true, at: T + 5, rank: LIFECYCLE.active });
    expect(subscriptionState(subscription('active', { cancel_at: END }), T)).toMatchObject({ renews: false });
    expect(subscriptionState(subscription('canceled'), T)).toMatchObject({ status: 'ended', rank: LIFECYCLE.final });
    expect(subscriptionState(subscription('past_due'), T)).toBeUndefined();
    const event = decideBilling(ev('customer.subscription.updated', answer, T + 5));
    expect(event.action === 'apply' && event.subscription?.state).toEqual(subscriptionState(answer, T + 5));
  });
});
