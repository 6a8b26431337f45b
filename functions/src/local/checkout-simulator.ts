import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Stripe from 'stripe';
import { PRICES, type Currency } from '@app/shared/constants';
import { findUserIdByCustomer } from '../db/billing.ts';
import { getUser } from '../db/users.ts';
import { effectivePlan } from '../domain/plan.ts';
import { localCheckoutSessions, setLocalStripe, webhookSecret, type LocalCheckoutSession } from '../lib/stripe.ts';
import type { LocalPage } from './server.ts';

/**
 * The local checkout simulator (local server only, never deployed). With no STRIPE_SECRET_KEY,
 * checkout and portal answer URLs of these pages, which play Stripe's part:
 *
 *   GET  /local/checkout/:sessionId   plan, currency, amount; Pay and Cancel
 *   POST /local/checkout/:sessionId   Pay: sends checkout.session.completed, then
 *                                     customer.subscription.created (active, one month), each signed
 *                                     with the webhook secret by the stripe library, to this server's
 *                                     own /stripe/webhook; then 303 to the success URL. Cancel: 303 to
 *                                     the cancel URL.
 *   GET  /local/portal/:customerId    the subscription; Cancel subscription (or, once cancelled,
 *                                     Renew subscription and End the billing period now) and Return
 *   POST /local/portal/:customerId    Cancel and Renew send customer.subscription.updated with
 *                                     cancel_at_period_end true / false (Pro stays until the period
 *                                     end, as in Stripe's default portal) and come back to the portal;
 *                                     End sends customer.subscription.deleted, then 303 to /profile.
 *
 * It also answers, in Stripe's place, the changes the API itself asks for: the plan card's Renew
 * (lib/stripe.ts resumeSubscription) and deleting the account, which ends the subscription at once
 * (lib/stripe.ts cancelSubscription): the portal then shows it cancelled, with its date, though the
 * account is gone.
 */

const PLAN_NAME = 'Live Transcribe Pro';

/**
 * Subscriptions the API ended at once (deleting the account), by customer id: the second they
 * ended. In memory, on globalThis (as the checkout sessions), so bundled handlers share it.
 */
export const cancelledByApi: Map<string, number> = ((globalThis as { [k: symbol]: unknown })[
  Symbol.for('live-transcribe.local-cancelled-subscriptions')
] ??= new Map<string, number>()) as Map<string, number>;
const CHECKOUT_PATH = /^\/local\/checkout\/([A-Za-z0-9_]+)$/;
const PORTAL_PATH = /^\/local\/portal\/([A-Za-z0-9_]+)$/;

export const checkoutSimulator: LocalPage = async (req, res, url, body) => {
  const checkout = CHECKOUT_PATH.exec(url.pathname);
  const portal = PORTAL_PATH.exec(url.pathname);
  if (!checkout && !portal) return false;
  const method = (req.method ?? 'GET').toUpperCase();
  if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
    send(res, 405, page('Method not allowed', '<h1>Method not allowed</h1>'));
    return true;
  }
  const action = method === 'POST' ? new URLSearchParams(body.toString('utf8')).get('action') : undefined;
  if (checkout) await checkoutPage(req, res, checkout[1]!, action);
  else await portalPage(req, res, portal![1]!, action);
  return true;
};

async function checkoutPage(req: IncomingMessage, res: ServerResponse, id: string, action: string | null | undefined) {
  const session = localCheckoutSessions.get(id);
  if (session && session.expiresAt * 1000 <= Date.now()) localCheckoutSessions.delete(id);
  if (!session || !localCheckoutSessions.has(id)) {
    send(res, 404, page('Checkout not found', `<h1>Checkout not found</h1>
      <p>This checkout session does not exist, has expired or has already been used. Start again from the app.</p>
      <p><a href="/">Back to Live Transcribe</a></p>`));
    return;
  }
  if (action === 'cancel') {
    localCheckoutSessions.delete(id);
    return redirect(res, session.cancelUrl);
  }
  if (action === 'pay') {
    localCheckoutSessions.delete(id);
    cancelledByApi.delete(session.customerId);
    try {
      for (const event of paymentEvents(session)) await deliver(req, event);
    } catch (err) {
      localCheckoutSessions.set(id, session); // let the user try again
      return send(res, 502, page('Payment not completed', `<h1>Payment not completed</h1>
        <p>The local webhook did not accept the payment: ${escapeHtml(err instanceof Error ? err.message : String(err))}</p>
        <p><a href="/local/checkout/${escapeHtml(id)}">Try again</a></p>`));
    }
    return redirect(res, session.successUrl.replace('{CHECKOUT_SESSION_ID}', encodeURIComponent(id)));
  }
  const amount = formatAmount(session.currency);
  send(res, 200, page(`Pay ${amount} — ${PLAN_NAME}`, `
    <p class="note">Local checkout simulator: no real payment is made.</p>
    <h1>Subscribe to ${PLAN_NAME}</h1>
    <dl>
      <dt>Plan</dt><dd>${PLAN_NAME}</dd>
      <dt>Currency</dt><dd>${escapeHtml(session.currency)}</dd>
      <dt>Amount</dt><dd><strong>${escapeHtml(amount)}</strong> per month</dd>
      <dt>Email</dt><dd>${escapeHtml(session.email)}</dd>
    </dl>
    <form method="post">
      <button type="submit" name="action" value="pay" class="primary">Pay</button>
      <button type="submit" name="action" value="cancel">Cancel</button>
    </form>`));
}

async function portalPage(req: IncomingMessage, res: ServerResponse, customerId: string, action: string | null | undefined) {
  const userId = await findUserIdByCustomer(customerId);
  const user = userId ? await getUser(userId) : undefined;
  // The portal is served on the origin the user came from (lib/stripe.ts): a path keeps them there.
  const returnUrl = '/profile';
  const subscription = user?.subscriptions?.[subscriptionIdFor(customerId)];
  const current = subscription?.status === 'active' && subscription.end !== null ? { end: subscription.end, renews: subscription.renews !== false } : undefined;
  const change = portalActions[action ?? ''];
  if (change) {
    if (!current) return redirect(res, `/local/portal/${encodeURIComponent(customerId)}`);
    try {
      await deliver(req, change(customerId, userId, current.end));
    } catch (err) {
      return send(res, 502, page('Change failed', `<h1>Change failed</h1>
        <p>The local webhook did not accept the change: ${escapeHtml(err instanceof Error ? err.message : String(err))}</p>
        <p><a href="${escapeHtml(returnUrl)}">Return</a></p>`));
    }
    return redirect(res, action === 'end' ? returnUrl : `/local/portal/${encodeURIComponent(customerId)}`);
  }
  const date = (end: number) => escapeHtml(new Date(end * 1000).toUTCString().slice(0, 16));
  const ended = cancelledByApi.get(customerId);
  const status = ended !== undefined && (!current || !user)
    ? `<p>${PLAN_NAME}: cancelled on ${date(ended)}. It has ended and will not renew.</p>`
    : !current || !user || effectivePlan(user) !== 'pro'
    ? '<p>No active subscription.</p>'
    : current.renews
      ? `<p>${PLAN_NAME}: active, renews on ${date(current.end)}.</p>
         <form method="post"><button type="submit" name="action" value="cancel" class="danger">Cancel subscription</button></form>`
      : `<p>${PLAN_NAME}: cancelled, active until ${date(current.end)}. It will not renew.</p>
         <form method="post">
           <button type="submit" name="action" value="renew" class="primary">Renew subscription</button>
           <button type="submit" name="action" value="end">End the billing period now</button>
         </form>
         <p class="note">End the billing period now plays the passing of time: Stripe ends the subscription on that date.</p>`;
  send(res, 200, page(`Manage subscription — ${PLAN_NAME}`, `
    <p class="note">Local customer portal simulator.</p>
    <h1>Manage your subscription</h1>
    <p>Customer <code>${escapeHtml(customerId)}</code>${user ? ` (${escapeHtml(user.email)})` : ''}</p>
    ${status}
    <p><a href="${escapeHtml(returnUrl)}">Return</a></p>`));
}

/**
 * The portal's changes, as Stripe's default customer portal makes them: Cancel keeps the
 * subscription until the end of the paid period (`cancel_at_period_end`), Renew undoes that, and
 * the period's end (played here by a button) deletes the subscription.
 */
const portalActions: Record<string, (customerId: string, userId: string | undefined, periodEnd: number) => EventBody> = {
  cancel: (customerId, userId, periodEnd) =>
    subscriptionEvent('customer.subscription.updated', { customerId, userId, status: 'active', periodEnd, cancelAtPeriodEnd: true }),
  renew: (customerId, userId, periodEnd) =>
    subscriptionEvent('customer.subscription.updated', { customerId, userId, status: 'active', periodEnd, cancelAtPeriodEnd: false }),
  end: (customerId, userId, periodEnd) => subscriptionEvent('customer.subscription.deleted', { customerId, userId, status: 'canceled', periodEnd }),
};

// ---- Stripe-shaped events --------------------------------------------------------------------

type EventBody = { id: string; type: string; created: number; object: Record<string, unknown> };

let lastCreated = 0;
/** Event `created` seconds, strictly increasing, so the webhook's ordering sees them in sequence. */
function nextCreated(): number {
  lastCreated = Math.max(Math.floor(Date.now() / 1000), lastCreated + 1);
  return lastCreated;
}

const randomId = (prefix: string) => `${prefix}_local_${randomBytes(12).toString('hex')}`;
const subscriptionIdFor = (customerId: string) => `sub_local_${customerId.replace(/^cus_local_/, '')}`;

function oneMonthAfter(seconds: number): number {
  const d = new Date(seconds * 1000);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return Math.floor(d.getTime() / 1000);
}

function paymentEvents(s: LocalCheckoutSession): EventBody[] {
  const created = nextCreated();
  const subscription = subscriptionIdFor(s.customerId);
  const completed: EventBody = {
    id: randomId('evt'),
    type: 'checkout.session.completed',
    created,
    object: {
      id: s.id,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'complete',
      payment_status: 'paid',
      client_reference_id: s.userId,
      customer: s.customerId,
      customer_email: s.email,
      subscription,
      currency: s.currency.toLowerCase(),
      amount_total: PRICES[s.currency].amountMinor,
      metadata: { userId: s.userId },
      success_url: s.successUrl,
      cancel_url: s.cancelUrl,
      livemode: false,
      created: Math.floor(s.createdAt / 1000),
    },
  };
  return [completed, subscriptionEvent('customer.subscription.created', { customerId: s.customerId, userId: s.userId, status: 'active', currency: s.currency })];
}

type SubscriptionFacts = { customerId: string; userId: string | undefined; status: 'active' | 'canceled'; currency?: Currency; periodEnd?: number; cancelAtPeriodEnd?: boolean };

function subscriptionEvent(
  type: 'customer.subscription.created' | 'customer.subscription.updated' | 'customer.subscription.deleted',
  o: SubscriptionFacts,
): EventBody {
  const created = nextCreated();
  return { id: randomId('evt'), type, created, object: subscriptionObject(o, created) };
}

/** The subscription as Stripe shows it (in an event, or in its answer to a change) at `created`. */
function subscriptionObject(o: SubscriptionFacts, created: number): Record<string, unknown> {
  const currency = o.currency ?? 'USD';
  const periodEnd = o.periodEnd ?? oneMonthAfter(created);
  return {
    id: subscriptionIdFor(o.customerId),
    object: 'subscription',
    customer: o.customerId,
    status: o.status,
    cancel_at_period_end: o.cancelAtPeriodEnd ?? false,
    cancel_at: o.cancelAtPeriodEnd ? periodEnd : null,
    canceled_at: o.status === 'canceled' ? created : null,
    ended_at: o.status === 'canceled' ? created : null,
    created,
    start_date: created,
    currency: currency.toLowerCase(),
    livemode: false,
    metadata: o.userId ? { userId: o.userId } : {},
    items: {
      object: 'list',
      data: [
        {
          id: randomId('si'),
          object: 'subscription_item',
          quantity: 1,
          current_period_start: created,
          current_period_end: periodEnd,
          price: {
            id: `price_local_${currency.toLowerCase()}`,
            object: 'price',
            currency: currency.toLowerCase(),
            unit_amount: PRICES[currency].amountMinor,
            recurring: { interval: PRICES[currency].interval, interval_count: 1 },
          },
        },
      ],
    },
  };
}

/**
 * The API's renewal (a subscription set to cancel at its period end renews again), answered as
 * Stripe answers `subscriptions.update(id, {cancel_at_period_end: false})`: the subscription as it
 * now is, at a second after every event this simulator has sent. The API records the answer
 * itself, so no event follows (Stripe's own would change nothing).
 */
setLocalStripe({
  resumeSubscription: ({ customerId, userId, periodEnd }) => {
    const at = nextCreated();
    return { subscription: subscriptionObject({ customerId, userId, status: 'active', periodEnd, cancelAtPeriodEnd: false }, at), at };
  },
  cancelSubscription: ({ id, customerId }) => {
    if (id === subscriptionIdFor(customerId)) cancelledByApi.set(customerId, nextCreated());
  },
});

/** Signs the event with the webhook secret (the stripe library's own helper) and POSTs it to this server. */
async function deliver(req: IncomingMessage, e: EventBody): Promise<void> {
  const payload = JSON.stringify({
    id: e.id,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: e.created,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: e.type,
    data: { object: e.object },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: await webhookSecret() });
  const res = await fetch(`${ownOrigin(req)}/stripe/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body: payload,
  });
  if (!res.ok) throw new Error(`${e.type} answered ${res.status} ${await res.text()}`);
}

/** The address this request arrived on: the server can always reach itself there. */
function ownOrigin(req: IncomingMessage): string {
  const address = req.socket.localAddress ?? '127.0.0.1';
  const host = address.startsWith('::ffff:') ? address.slice(7) : address.includes(':') ? `[${address}]` : address;
  return `http://${host}:${req.socket.localPort}`;
}

// ---- HTML ------------------------------------------------------------------------------------

export function formatAmount(currency: Currency): string {
  const locale = currency === 'BRL' ? 'pt-BR' : 'en-US';
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(PRICES[currency].amountMinor / 100);
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, main: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; color: #111827; background: #f3f4f6; margin: 0; }
  main { max-width: 28rem; margin: 3rem auto; padding: 2rem; background: #fff; border-radius: 0.75rem; box-shadow: 0 1px 3px rgb(0 0 0 / 0.15); }
  h1 { font-size: 1.5rem; margin: 0 0 1rem; }
  .note { font-size: 0.875rem; color: #374151; background: #fef3c7; padding: 0.5rem 0.75rem; border-radius: 0.375rem; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: 0.25rem 1rem; }
  dt { color: #374151; } dd { margin: 0; }
  form { display: flex; gap: 0.75rem; margin-top: 1.5rem; }
  button { font: inherit; padding: 0.6rem 1.25rem; border-radius: 0.375rem; border: 1px solid #6b7280; background: #fff; color: #111827; cursor: pointer; }
  button.primary { background: #4338ca; border-color: #4338ca; color: #fff; }
  button.danger { background: #b91c1c; border-color: #b91c1c; color: #fff; }
  button:focus-visible, a:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
  a { color: #3730a3; }
</style>
</head>
<body>
<main>
${main}
</main>
</body>
</html>`;
}

function send(res: ServerResponse, status: number, html: string) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
}

function redirect(res: ServerResponse, location: string) {
  res.writeHead(303, { location, 'cache-control': 'no-store' });
  res.end();
}
