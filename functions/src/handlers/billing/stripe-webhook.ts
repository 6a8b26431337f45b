import { applySubscriptionEvent, linkCustomer, releaseCheckout, resolveBillingUser } from '../../db/billing.ts';
import { decideBilling } from '../../domain/billing.ts';
import { route } from '../../lib/http.ts';
import { log } from '../../lib/log.ts';
import { verifyWebhook } from '../../lib/stripe.ts';

/**
 * POST /stripe/webhook: verifies Stripe's signature on the raw body (400 if wrong), then records
 * what the event decides: a subscription's state (and so the plan), the customer, a checkout that
 * is no longer open. Replays, older events, unknown types and unknown customers answer 200
 * (nothing for Stripe to retry); store failures answer 5xx, so Stripe retries.
 */
export const handler = route('stripeWebhook', async ({ rawBody, headers }) => {
  const event = await verifyWebhook(rawBody, headers['stripe-signature']);
  const decision = decideBilling(event);
  const fields = { eventId: event.id, eventType: event.type };
  if (decision.action === 'ignore') {
    log.info('stripe event ignored', { ...fields, reason: decision.reason });
    return { received: true as const };
  }
  const user = await resolveBillingUser(decision.lookup, decision.userId, decision.customerId);
  if (!user) {
    log.warn('stripe event for an unknown user', { ...fields, customerId: decision.customerId, userId: decision.userId });
    return { received: true as const };
  }
  const { userId } = user;
  if (decision.subscription) {
    const outcome = await applySubscriptionEvent({
      eventId: decision.eventId,
      eventType: decision.eventType,
      eventCreated: decision.eventCreated,
      userId,
      customerId: decision.customerId,
      subscription: decision.subscription,
      userState: user.state,
    });
    log.info('stripe event processed', { ...fields, userId, outcome, subscriptionId: decision.subscription.id, status: decision.subscription.state.status });
  } else if (decision.customerId) {
    await linkCustomer(userId, decision.customerId);
    log.info('stripe customer recorded', { ...fields, userId });
  }
  if (decision.closesCheckout) await releaseCheckout(userId, decision.closesCheckout);
  return { received: true as const };
});
