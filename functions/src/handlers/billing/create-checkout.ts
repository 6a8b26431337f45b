import { effectivePlan } from '../../domain/plan.ts';
import { conflict } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';
import { createCheckoutUrl } from '../../lib/stripe.ts';

/** POST /stripe/checkout {currency}: a subscription checkout for the caller; answers where to go. */
export const handler = route('checkout', async ({ user, body }) => {
  if (effectivePlan(user) === 'pro') throw conflict('You already have Pro', 'already_pro');
  return { url: await createCheckoutUrl(user, body.currency) };
});
