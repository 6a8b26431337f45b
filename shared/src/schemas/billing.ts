import * as z from 'zod';
import { CURRENCIES } from '../constants.ts';

export const checkoutRequest = z.object({
  currency: z.enum(CURRENCIES, { error: 'Choose USD or BRL' }),
});
export type CheckoutRequest = z.infer<typeof checkoutRequest>;
/** Where to send the browser: Stripe's hosted page (or the local simulator). */
export const redirectResponse = z.object({ url: z.string() });
export const webhookResponse = z.object({ received: z.literal(true) });
