import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import type { Currency } from '@app/shared/constants';
import { returnOrigin } from '../domain/origins.ts';
import type { User } from '../domain/users.ts';
import { env } from './env.ts';
import { badRequest, conflict, HttpError } from './errors.ts';
import { fromAws, secret } from './secrets.ts';

/**
 * Stripe: a lazily created client, webhook verification, checkout and portal sessions, renewal.
 *
 * Local mode (no STRIPE_SECRET_KEY, and not running on AWS): checkout and portal answer URLs of
 * the local checkout simulator (local/checkout-simulator.ts), which signs its webhook events
 * with the webhook secret below, and the simulator answers a renewal in Stripe's place. On AWS a missing key is a configuration error, never local mode,
 * so the public local secret can never verify a webhook there.
 */

/** The local webhook secret when STRIPE_WEBHOOK_SECRET is not set (documented in README.md). */
export const LOCAL_WEBHOOK_SECRET = 'whsec_local_simulator_secret';
/** How old a webhook signature may be, in seconds (Stripe's default). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

let cached: { key: string; client: Stripe } | undefined;
let testClient: Stripe | undefined;

const isLocalRuntime = () => !process.env.AWS_LAMBDA_FUNCTION_NAME && !fromAws('stripeApiKey') && !fromAws('stripeWebhookSigning');

/** The Stripe client, or undefined in local mode. */
export async function stripeClient(): Promise<Stripe | undefined> {
  if (testClient) return testClient;
  const key = await secret('stripeApiKey');
  if (!key) {
    if (isLocalRuntime()) return undefined;
    throw new HttpError(500, 'Billing is not configured: the stripe-api-key secret has no value');
  }
  if (cached?.key !== key) cached = { key, client: new Stripe(key, { maxNetworkRetries: 2, timeout: 15_000 }) };
  return cached.client;
}

/** Tests: use this client (e.g. one pointed at a fake API) as if a secret key were configured. */
export function setStripeClientForTests(client: Stripe | undefined): void {
  testClient = client;
}

/** The webhook signing secret: configured, or the fixed local default when running locally. */
export async function webhookSecret(): Promise<string> {
  const configured = await secret('stripeWebhookSigning');
  if (configured) return configured;
  if (isLocalRuntime()) return LOCAL_WEBHOOK_SECRET;
  throw new HttpError(500, 'Billing is not configured: the stripe-webhook-signing secret has no value');
}

/** Verifies Stripe's signature on the raw body and parses the event; anything wrong is a 400. */
export async function verifyWebhook(rawBody: string, signature: string | undefined): Promise<Stripe.Event> {
  const secret = await webhookSecret();
  try {
    return Stripe.webhooks.constructEvent(rawBody, signature ?? '', secret, WEBHOOK_TOLERANCE_SECONDS);
  } catch (err) {
    if (err instanceof SyntaxError) throw badRequest('Invalid webhook payload', 'invalid_payload');
    throw badRequest('Invalid Stripe signature', 'invalid_signature');
  }
}

/** A checkout started in local mode, waiting for the simulator's Pay or Cancel. */
export interface LocalCheckoutSession {
  id: string;
  userId: string;
  email: string;
  customerId: string;
  currency: Currency;
  successUrl: string;
  cancelUrl: string;
  createdAt: number;
  /** Epoch seconds after which the session can no longer be paid, as Stripe's `expires_at`. */
  expiresAt: number;
}

/**
 * Local mode only: pending simulator sessions by id (in memory; a restart forgets them). One map per
 * process, kept on globalThis, so the simulator shares it with the checkout routes also when those
 * run from their own bundles (LOCAL_HANDLERS=bundles), each holding its own copy of this module.
 */
export const localCheckoutSessions: Map<string, LocalCheckoutSession> = ((globalThis as { [k: symbol]: unknown })[
  Symbol.for('live-transcribe.local-checkout-sessions')
] ??= new Map<string, LocalCheckoutSession>()) as Map<string, LocalCheckoutSession>;
const MAX_LOCAL_SESSIONS = 1000;

/** The local customer id the simulator gives a user without one. */
export const localCustomerId = (userId: string) => `cus_local_${userId}`;

type BillingUser = Pick<User, 'id' | 'email' | 'language' | 'stripeCustomerId'>;

const CHECKOUT_LOCALES = { pt: 'pt-BR', en: 'en', es: 'es' } as const;

/**
 * Creates a subscription checkout for the user in `currency`, open until `expiresAt` (epoch s): its
 * id and the page to send them to. It returns to `callerOrigin` (the request's Origin header) when
 * that is one of the site's origins, else to APP_URL (domain/origins.ts).
 */
export async function createCheckoutSession(
  user: BillingUser,
  currency: Currency,
  expiresAt: number,
  callerOrigin: string | undefined,
): Promise<{ id: string; url: string }> {
  const e = env();
  const origin = returnOrigin(e.APP_URL, callerOrigin);
  const successUrl = `${origin}/billing/success?session_id={CHECKOUT_SESSION_ID}`;
  const cancelUrl = `${origin}/billing/cancelled`;
  const stripe = await stripeClient();
  if (!stripe) {
    const id = `cs_local_${randomBytes(12).toString('hex')}`;
    if (localCheckoutSessions.size >= MAX_LOCAL_SESSIONS) localCheckoutSessions.delete(localCheckoutSessions.keys().next().value!);
    localCheckoutSessions.set(id, {
      id,
      userId: user.id,
      email: user.email,
      customerId: user.stripeCustomerId ?? localCustomerId(user.id),
      currency,
      successUrl,
      cancelUrl,
      createdAt: Date.now(),
      expiresAt,
    });
    return { id, url: `${origin}/local/checkout/${id}` };
  }
  const price = currency === 'USD' ? e.STRIPE_PRICE_USD : e.STRIPE_PRICE_BRL;
  if (!price) throw new HttpError(500, `Billing is not configured: STRIPE_PRICE_${currency} is not set`);
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    line_items: [{ price, quantity: 1 }],
    ...(user.stripeCustomerId ? { customer: user.stripeCustomerId } : { customer_email: user.email }),
    client_reference_id: user.id,
    metadata: { userId: user.id },
    // Copied onto the subscription (and its invoices), so later events find the user even before
    // the customer id is recorded.
    subscription_data: { metadata: { userId: user.id } },
    success_url: successUrl,
    cancel_url: cancelUrl,
    expires_at: expiresAt,
    locale: CHECKOUT_LOCALES[user.language] ?? 'auto',
  });
  if (!session.url) throw new Error('Stripe answered a checkout session without a url');
  return { id: session.id, url: session.url };
}

/**
 * Ends an open checkout session so it can no longer be paid. A session that is already complete
 * or expired is left as it is (Stripe refuses to expire it): its webhook events settle the plan.
 */
export async function expireCheckoutSession(id: string): Promise<void> {
  const stripe = await stripeClient();
  if (!stripe) {
    localCheckoutSessions.delete(id);
    return;
  }
  try {
    await stripe.checkout.sessions.expire(id);
  } catch (err) {
    if (!(err instanceof Stripe.errors.StripeInvalidRequestError)) throw err;
  }
}

/**
 * A customer-portal session for this customer (the caller's own; the handler makes sure), returning
 * to the profile at `callerOrigin` when that is one of the site's origins, else at APP_URL.
 */
export async function createPortalUrl(customerId: string, callerOrigin: string | undefined): Promise<string> {
  const origin = returnOrigin(env().APP_URL, callerOrigin);
  const stripe = await stripeClient();
  if (!stripe) return `${origin}/local/portal/${encodeURIComponent(customerId)}`;
  const session = await stripe.billingPortal.sessions.create({ customer: customerId, return_url: `${origin}/profile` });
  return session.url;
}

/** A subscription as Stripe answered a change to it, and when (epoch seconds, Stripe's clock). */
export interface SubscriptionAnswer {
  subscription: Record<string, unknown>;
  at: number;
}

/** The subscription a renewal resumes: Stripe needs only its id; the local simulator, what it knows of it. */
export interface ResumeTarget {
  id: string;
  customerId: string;
  userId: string;
  /** Its current period end (epoch seconds). */
  periodEnd: number;
}

/**
 * Local mode: the checkout simulator's answers to the changes the API asks of Stripe. The simulator
 * (local/checkout-simulator.ts) sets it when the local server loads it, on globalThis, so route
 * handlers running from their own bundles (each with its own copy of this module) find it too.
 */
export interface LocalStripe {
  resumeSubscription(target: ResumeTarget): SubscriptionAnswer;
  cancelSubscription(target: CancelTarget): void;
}
const LOCAL_STRIPE = Symbol.for('live-transcribe.local-stripe');

export function setLocalStripe(local: LocalStripe): void {
  (globalThis as { [LOCAL_STRIPE]?: LocalStripe })[LOCAL_STRIPE] = local;
}

function localStripe(): LocalStripe {
  const local = (globalThis as { [LOCAL_STRIPE]?: LocalStripe })[LOCAL_STRIPE];
  if (!local) throw new Error('Local mode: the checkout simulator (local/checkout-simulator.ts) is not loaded');
  return local;
}

/** The second Stripe answered (its Date header), or this machine's when it sent none. */
function answeredAt(response: { headers?: Record<string, string> } | undefined): number {
  const date = Date.parse(response?.headers?.date ?? '');
  return Math.floor((Number.isNaN(date) ? Date.now() : date) / 1000);
}

/**
 * Sets a subscription that is to cancel at its period end to renew again, as Stripe's customer
 * portal does: `cancel_at_period_end` false, then a `cancel_at` date, if one is still set, cleared.
 * A subscription Stripe can no longer change (already canceled) is a 409 `not_resumable`.
 */
export async function resumeSubscription(target: ResumeTarget): Promise<SubscriptionAnswer> {
  const stripe = await stripeClient();
  if (!stripe) return localStripe().resumeSubscription(target);
  try {
    let subscription = await stripe.subscriptions.update(target.id, { cancel_at_period_end: false });
    if (subscription.cancel_at) subscription = await stripe.subscriptions.update(target.id, { cancel_at: '' });
    return { subscription: subscription as unknown as Record<string, unknown>, at: answeredAt(subscription.lastResponse) };
  } catch (err) {
    if (err instanceof Stripe.errors.StripeInvalidRequestError) throw conflict('This subscription can no longer be renewed', 'not_resumable');
    throw err;
  }
}

/** A subscription to end now: Stripe needs only its id; the local simulator, what it knows of it. */
export interface CancelTarget {
  id: string;
  customerId: string;
  userId: string;
}

/**
 * Ends a subscription at once (Stripe: `subscriptions.cancel`), as deleting the account does: no
 * further charge, no renewal. One Stripe no longer knows, or has already ended, is left as it is.
 */
export async function cancelSubscription(target: CancelTarget): Promise<void> {
  const stripe = await stripeClient();
  if (!stripe) return localStripe().cancelSubscription(target);
  try {
    await stripe.subscriptions.cancel(target.id);
  } catch (err) {
    if (!(err instanceof Stripe.errors.StripeInvalidRequestError)) throw err;
  }
}
