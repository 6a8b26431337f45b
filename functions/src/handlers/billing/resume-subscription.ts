import { recordSubscriptionState } from '../../db/billing.ts';
import { nowSeconds } from '../../db/client.ts';
import { subscriptionState, subscriptionsToResume, type PlanChange } from '../../domain/billing.ts';
import { planStatus } from '../../domain/plan.ts';
import { notFound } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';
import { localCustomerId, resumeSubscription } from '../../lib/stripe.ts';

/**
 * POST /stripe/subscription/resume: the caller's subscriptions that are set to cancel at the end
 * of their period renew again (Stripe: `cancel_at_period_end` false), and the answer is the plan
 * as it now stands. Stripe answers each change with the subscription as it now is; that answer is
 * recorded at once, as the webhook records an event, as newer than the cancellation it undoes, so
 * the plan card shows the renewal straight away (Stripe's own event about it arrives later and
 * changes nothing). Already renewing: the plan as it is. Nothing to renew: 404 no_subscription.
 */
export const handler = route('resumeSubscription', async ({ user }) => {
  const targets = subscriptionsToResume(user.subscriptions ?? {}, nowSeconds());
  const current = planStatus(user);
  if (targets.length === 0) {
    if (current.planRenews) return current;
    throw notFound('No cancelled subscription to renew', 'no_subscription');
  }
  let plan: PlanChange | undefined;
  for (const [id, recorded] of targets) {
    const answer = await resumeSubscription({ id, customerId: user.stripeCustomerId ?? localCustomerId(user.id), userId: user.id, periodEnd: recorded.end });
    const state = subscriptionState(answer.subscription, Math.max(answer.at, recorded.at + 1));
    if (state) ({ plan } = await recordSubscriptionState({ userId: user.id, customerId: undefined, subscription: { id, state } }));
  }
  return plan ? planStatus(plan) : current;
});
