import { CHECKOUT_OPEN_SECONDS, holdCheckout, recordCheckout, releaseCheckout } from '../../db/billing.ts';
import { nowSeconds } from '../../db/client.ts';
import { effectivePlan } from '../../domain/plan.ts';
import { conflict, HttpError } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';
import { createCheckoutSession } from '../../lib/stripe.ts';

/**
 * POST /stripe/checkout {currency}: a subscription checkout for the caller; answers where to go.
 * Never two open at once, so one user cannot start two subscriptions: while a checkout is open,
 * asking again in its currency answers the same page, and in another currency is refused until
 * it is paid, cancelled (POST /stripe/checkout/cancel) or expired (30 minutes). Pro users are refused.
 * The payment returns to the origin the request came from when it is one of the site's.
 */
export const handler = route('checkout', async ({ user, body, headers }) => {
  if (effectivePlan(user) === 'pro') throw conflict('You already have Pro', 'already_pro');
  const expiresAt = nowSeconds() + CHECKOUT_OPEN_SECONDS;
  const hold = await holdCheckout(user.id, body.currency, expiresAt);
  if (!hold.held) {
    if (hold.url && hold.currency === body.currency) return { url: hold.url };
    throw new HttpError(409, 'A checkout is already open. Finish it, or cancel it to choose again.', {
      code: 'checkout_open',
      secondsLeft: hold.secondsLeft,
    });
  }
  try {
    const session = await createCheckoutSession(user, body.currency, expiresAt, headers.origin);
    await recordCheckout(user.id, session.id, session.url);
    return { url: session.url };
  } catch (err) {
    await releaseCheckout(user.id).catch(() => undefined);
    throw err;
  }
});
