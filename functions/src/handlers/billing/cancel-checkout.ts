import { releaseCheckout } from '../../db/billing.ts';
import { route } from '../../lib/http.ts';
import { expireCheckoutSession } from '../../lib/stripe.ts';

/**
 * POST /stripe/checkout/cancel: back from the hosted checkout without paying. Ends the caller's
 * own open checkout (it can no longer be paid) so a new one can start at once. Nothing open: ok.
 */
export const handler = route('cancelCheckout', async ({ user }) => {
  if (user.checkoutId) {
    await expireCheckoutSession(user.checkoutId);
    await releaseCheckout(user.id, user.checkoutId);
  }
  return { ok: true as const };
});
