import { notFound } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';
import { createPortalUrl } from '../../lib/stripe.ts';

/**
 * POST /stripe/portal: a customer-portal session for the caller's own Stripe customer only,
 * returning to the origin the request came from when it is one of the site's.
 */
export const handler = route('portal', async ({ user, headers }) => {
  if (!user.stripeCustomerId) throw notFound('No subscription to manage', 'no_subscription');
  return { url: await createPortalUrl(user.stripeCustomerId, headers.origin) };
});
