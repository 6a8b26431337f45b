import { applyPlanChange, linkCustomer, resolveBillingUser } from '../../db/billing.ts';
import { decideBilling } from '../../domain/billing.ts';
import { route } from '../../lib/http.ts';
import { log } from '../../lib/log.ts';
import { verifyWebhook } from '../../lib/stripe.ts';

/**
 * POST /stripe/webhook: verifies Stripe's signature on the raw body (400 if wrong), then applies
 * the plan change the event decides. Replays, older events, unknown types and unknown customers
 * answer 200 (nothing for Stripe to retry); store failures answer 5xx, so Stripe retries.
 */
export const handler = route('stripeWebhook', async ({ rawBody, headers }) => {
  const event = await verifyWebhook(rawBody, headers['stripe-signature']);
  const decision = decideBilling(event);
  const fields = { eventId: event.id, eventType: event.type };
  if (decision.action === 'ignore') {
    log.info('stripe event ignored', { ...fields, reason: decision.reason });
    return { received: true as const };
  }
  const userId = await resolveBillingUser(decision.lookup, decision.userId, decision.customerId);
  if (!userId) {
    log.warn('stripe event for an unknown user', { ...fields, customerId: decision.customerId, userId: decision.userId });
    return { received: true as const };
  }
  if (!decision.change) {
    if (decision.customerId) await linkCustomer(userId, decision.customerId);
    log.info('stripe customer recorded', { ...fields, userId });
    return { received: true as const };
  }
  const outcome = await applyPlanChange({
    eventId: decision.eventId,
    eventType: decision.eventType,
    eventCreated: decision.eventCreated,
    userId,
    customerId: decision.customerId,
    change: decision.change,
  });
  log.info('stripe event processed', { ...fields, userId, outcome, plan: decision.change.plan, planExpiry: decision.change.planExpiry });
  return { received: true as const };
});
