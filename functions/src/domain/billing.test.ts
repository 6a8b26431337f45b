import { describe, expect, it } from 'vitest';
import { decideBilling, oneIntervalAfter, subscriptionPeriodEnd, type StripeEventLike } from './billing.ts';

const T = 1_800_000_000; // 2027-01-15T08:00:00Z
const END = T + 30 * 86_400;
const iso = (s: number) => new Date(s * 1000).toISOString();
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
  it('a paid subscription checkout gives pro for one month and names user and customer', () => {
    const d = decideBilling(ev('checkout.session.completed', {
      object: 'checkout.session', mode: 'subscription', payment_status: 'paid', client_reference_id: 'u1', customer: 'cus_1', subscription: 'sub_1',
    }));
    expect(d).toEqual({
      action: 'apply', eventId: 'evt_1', eventType: 'checkout.session.completed', eventCreated: T,
      lookup: 'reference', userId: 'u1', customerId: 'cus_1', change: { plan: 'pro', planExpiry: oneIntervalAfter(T) },
    });
    expect(oneIntervalAfter(T)).toBe('2027-02-15T08:00:00.000Z');
  });

  it('an unpaid checkout only records the customer; a payment-mode checkout or one without a user is ignored', () => {
    const unpaid = decideBilling(ev('checkout.session.completed', { mode: 'subscription', payment_status: 'unpaid', client_reference_id: 'u1', customer: { id: 'cus_1' } }));
    expect(unpaid).toMatchObject({ action: 'apply', userId: 'u1', customerId: 'cus_1', change: null });
    expect(decideBilling(ev('checkout.session.completed', { mode: 'payment', payment_status: 'paid', client_reference_id: 'u1' })).action).toBe('ignore');
    expect(decideBilling(ev('checkout.session.completed', { mode: 'subscription', payment_status: 'paid' })).action).toBe('ignore');
  });

  it.each(['active', 'trialing'])('subscription %s gives pro until the item period end', (status) => {
    const d = decideBilling(ev('customer.subscription.updated', subscription(status)));
    expect(d).toMatchObject({ action: 'apply', lookup: 'customer', customerId: 'cus_1', userId: 'u1', change: { plan: 'pro', planExpiry: iso(END) } });
  });

  it('reads the legacy top-level current_period_end when items have none', () => {
    const sub = subscription('active', { items: { data: [{ id: 'si_1' }] }, current_period_end: END + 5 });
    expect(subscriptionPeriodEnd(sub)).toBe(END + 5);
    expect(decideBilling(ev('customer.subscription.created', sub))).toMatchObject({ change: { plan: 'pro', planExpiry: iso(END + 5) } });
  });

  it.each(['canceled', 'unpaid', 'incomplete_expired', 'paused'])('subscription %s gives free', (status) => {
    expect(decideBilling(ev('customer.subscription.updated', subscription(status)))).toMatchObject({ change: { plan: 'free', planExpiry: null } });
  });

  it('subscription deleted gives free whatever the status says', () => {
    expect(decideBilling(ev('customer.subscription.deleted', subscription('active')))).toMatchObject({ change: { plan: 'free', planExpiry: null } });
  });

  it.each(['past_due', 'incomplete'])('subscription %s leaves the plan until its expiry', (status) => {
    expect(decideBilling(ev('customer.subscription.updated', subscription(status))).action).toBe('ignore');
  });

  it('invoice.paid extends pro to the end of the paid period (API 2025+ parent shape and legacy shape)', () => {
    const lines = { data: [{ period: { start: T, end: END } }] };
    const modern = ev('invoice.paid', { object: 'invoice', customer: 'cus_1', lines, parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_1', metadata: { userId: 'u1' } } } });
    expect(decideBilling(modern)).toMatchObject({ lookup: 'customer', customerId: 'cus_1', userId: 'u1', change: { plan: 'pro', planExpiry: iso(END) } });
    const legacy = ev('invoice.paid', { object: 'invoice', customer: 'cus_1', subscription: 'sub_1', lines });
    expect(decideBilling(legacy)).toMatchObject({ customerId: 'cus_1', userId: undefined, change: { plan: 'pro', planExpiry: iso(END) } });
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
    expect(decideBilling(ev('customer.subscription.updated', subscription('active'), T + 7))).toMatchObject({ eventCreated: T + 7 });
  });
});
