import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { routes } from '@app/shared/routes';
import { db, tableName } from '../src/db/client.ts';
import { keys } from '../src/db/keys.ts';
import { setPlan } from '../src/db/users.ts';
import { handler as webhookHandler } from '../src/handlers/billing/stripe-webhook.ts';
import { resetEnv } from '../src/lib/env.ts';
import { LOCAL_WEBHOOK_SECRET, localCheckoutSessions, setStripeClientForTests } from '../src/lib/stripe.ts';
import { checkoutSimulator } from '../src/local/checkout-simulator.ts';
import { toEvent } from '../src/local/event.ts';
import { call, registerUser } from './call.ts';

/** Billing: webhook events signed by the real stripe library, checkout, portal, renewal, the local simulator. */

const now = () => Math.floor(Date.now() / 1000);
const MONTH = 30 * 86_400;
let seq = 0;

function stripeEvent(type: string, object: Record<string, unknown>, created = now()) {
  return { id: `evt_test_${Date.now().toString(36)}_${seq++}`, object: 'event', api_version: Stripe.API_VERSION, created, livemode: false, type, data: { object } };
}

const checkoutCompleted = (userId: string, customer: string, created = now()) =>
  stripeEvent('checkout.session.completed', {
    id: `cs_test_${seq++}`, object: 'checkout.session', mode: 'subscription', status: 'complete', payment_status: 'paid',
    client_reference_id: userId, customer, subscription: `sub_${customer}`, metadata: { userId },
  }, created);

const subscriptionEvent = (type: string, customer: string, status: string, periodEnd: number, created = now()) =>
  stripeEvent(type, {
    id: `sub_${customer}`, object: 'subscription', customer, status, metadata: {},
    items: { object: 'list', data: [{ id: 'si_1', object: 'subscription_item', current_period_end: periodEnd }] },
  }, created);

function sign(payload: string, opts: { secret?: string; timestamp?: number } = {}) {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? LOCAL_WEBHOOK_SECRET, timestamp: opts.timestamp });
}

async function deliver(event: object, opts: { secret?: string; timestamp?: number } = {}) {
  const payload = JSON.stringify(event);
  return call('stripeWebhook', { rawBody: payload, headers: { 'stripe-signature': sign(payload, opts) } });
}

/** The raw user item, with the billing attributes the API never shows. */
async function userItem(id: string) {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.user(id), ConsistentRead: true }));
  return out.Item!;
}

describe('stripe webhook', () => {
  it('a valid checkout.session.completed makes the user pro until a month ahead and records the customer', async () => {
    const u = await registerUser();
    const created = now();
    const res = await deliver(checkoutCompleted(u.id, `cus_${u.id}`, created));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true });
    const item = await userItem(u.id);
    expect(item.plan).toBe('pro');
    expect(Date.parse(item.planExpiry)).toBeGreaterThan(Date.now() + 27 * 86_400_000);
    expect(item.stripeCustomerId).toBe(`cus_${u.id}`);
    expect(item.GSI1PK).toBe(`STRIPE#cus_${u.id}`);
    expect(item.subscriptions[`sub_cus_${u.id}`]).toMatchObject({ status: 'active', at: created });
    const status = await call('planStatus', { token: u.token });
    expect(status.body).toMatchObject({ plan: 'pro', isPro: true });
  });

  it('an event found by our user id reads the user item once (the plan write starts from that read)', async () => {
    const u = await registerUser();
    const send = vi.spyOn(DynamoDBDocumentClient.prototype, 'send');
    try {
      expect((await deliver(checkoutCompleted(u.id, `cus_${u.id}`))).status).toBe(200);
      const userReads = send.mock.calls.filter(([command]) => command instanceof GetCommand && command.input.Key?.PK === keys.user(u.id).PK);
      expect(userReads).toHaveLength(1);
    } finally {
      send.mockRestore();
    }
    expect((await userItem(u.id)).plan).toBe('pro');
  });

  it('later events find the user by customer id: subscription period end sets planExpiry', async () => {
    const u = await registerUser();
    const t = now();
    await deliver(checkoutCompleted(u.id, `cus_${u.id}`, t - 10));
    const end = t + MONTH + 123;
    expect((await deliver(subscriptionEvent('customer.subscription.updated', `cus_${u.id}`, 'active', end, t))).status).toBe(200);
    expect((await userItem(u.id)).planExpiry).toBe(new Date(end * 1000).toISOString());
  });

  it('a wrong secret answers 400 and changes nothing', async () => {
    const u = await registerUser();
    const res = await deliver(checkoutCompleted(u.id, 'cus_wrong'), { secret: 'whsec_not_the_right_one' });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual(expect.any(String));
    expect((await userItem(u.id)).plan).toBe('free');
  });

  it('a body changed by one byte answers 400 and changes nothing', async () => {
    const u = await registerUser();
    const payload = JSON.stringify(checkoutCompleted(u.id, `cus_${u.id}`));
    const header = sign(payload);
    const i = payload.indexOf('"complete"') + 2;
    const tampered = payload.slice(0, i) + 'K' + payload.slice(i + 1);
    expect(Buffer.byteLength(tampered)).toBe(Buffer.byteLength(payload));
    const res = await call('stripeWebhook', { rawBody: tampered, headers: { 'stripe-signature': header } });
    expect(res.status).toBe(400);
    expect((await userItem(u.id)).plan).toBe('free');
  });

  it('a signature older than 300 s answers 400', async () => {
    const u = await registerUser();
    const res = await deliver(checkoutCompleted(u.id, `cus_${u.id}`), { timestamp: now() - 301 });
    expect(res.status).toBe(400);
    expect((await userItem(u.id)).plan).toBe('free');
  });

  it('a missing signature, or a signed body that is not JSON, answers 400', async () => {
    expect((await call('stripeWebhook', { rawBody: '{"id":"evt_x"}' })).status).toBe(400);
    const res = await call('stripeWebhook', { rawBody: 'not json', headers: { 'stripe-signature': sign('not json') } });
    expect(res.status).toBe(400);
  });

  it('the same event delivered 5 times concurrently writes the plan exactly once', async () => {
    const u = await registerUser();
    const payload = JSON.stringify(checkoutCompleted(u.id, `cus_${u.id}`));
    const results = await Promise.all(
      Array.from({ length: 5 }, () => call('stripeWebhook', { rawBody: payload, headers: { 'stripe-signature': sign(payload) } })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const item = await userItem(u.id);
    expect(item.plan).toBe('pro');
    expect(item.planWrites).toBe(1);
    // and a later replay still changes nothing
    await call('stripeWebhook', { rawBody: payload, headers: { 'stripe-signature': sign(payload) } });
    expect((await userItem(u.id)).planWrites).toBe(1);
  });

  it('subscription.deleted followed by an older subscription.updated (active) ends free', async () => {
    const u = await registerUser();
    const t = now();
    const cus = `cus_${u.id}`;
    await deliver(checkoutCompleted(u.id, cus, t - 100));
    expect((await deliver(subscriptionEvent('customer.subscription.deleted', cus, 'canceled', t + MONTH, t))).status).toBe(200);
    expect((await deliver(subscriptionEvent('customer.subscription.updated', cus, 'active', t + MONTH, t - 50))).status).toBe(200);
    const item = await userItem(u.id);
    expect(item.plan).toBe('free');
    expect(item.planExpiry).toBeNull();
    expect(item.subscriptions[`sub_${cus}`]).toMatchObject({ status: 'ended', at: t });
    expect(item.planWrites).toBe(2);
  });

  it('an older checkout arriving after a newer subscription event still records the customer', async () => {
    const u = await registerUser();
    const t = now();
    const cus = `cus_late_${u.id}`;
    const sub = subscriptionEvent('customer.subscription.created', cus, 'active', t + MONTH, t);
    (sub.data.object as { metadata: Record<string, string> }).metadata = { userId: u.id };
    await deliver(sub);
    expect((await userItem(u.id)).plan).toBe('pro');
    await deliver(checkoutCompleted(u.id, cus, t - 1));
    const item = await userItem(u.id);
    expect(item.subscriptions[`sub_${cus}`]).toMatchObject({ status: 'active', at: t });
    expect(item.planExpiry).toBe(new Date((t + MONTH) * 1000).toISOString());
    expect(item.stripeCustomerId).toBe(cus);
  });

  it('events of the same second are ordered by what they say, in either arrival order: the exact period end, then the cancellation', async () => {
    for (const order of ['checkout first', 'subscription first'] as const) {
      const u = await registerUser();
      const t = now();
      const cus = `cus_same_${u.id}`;
      const sub = subscriptionEvent('customer.subscription.created', cus, 'active', t + MONTH + 5, t);
      (sub.data.object as { metadata: Record<string, string> }).metadata = { userId: u.id };
      const events = [checkoutCompleted(u.id, cus, t), sub];
      if (order === 'subscription first') events.reverse();
      for (const e of events) expect((await deliver(e)).status).toBe(200);
      let item = await userItem(u.id);
      expect(item.plan).toBe('pro');
      expect(item.planExpiry).toBe(new Date((t + MONTH + 5) * 1000).toISOString());

      const updated = subscriptionEvent('customer.subscription.updated', cus, 'active', t + MONTH + 9, t + 1);
      const deleted = subscriptionEvent('customer.subscription.deleted', cus, 'canceled', t + MONTH + 9, t + 1);
      const late = order === 'checkout first' ? [updated, deleted] : [deleted, updated];
      for (const e of late) expect((await deliver(e)).status).toBe(200);
      item = await userItem(u.id);
      expect(item.plan).toBe('free');
      expect(item.planExpiry).toBeNull();
    }
  });

  it('a user with two subscriptions stays Pro while either is active, until the later period end', async () => {
    const u = await registerUser();
    const t = now();
    const cus = `cus_two_${u.id}`;
    const first = (type: string, status: string, created: number) => {
      const e = subscriptionEvent(type, cus, status, t + MONTH, created);
      Object.assign(e.data.object, { id: `sub_first_${u.id}`, metadata: { userId: u.id } });
      return e;
    };
    const second = (type: string, status: string, created: number) => {
      const e = subscriptionEvent(type, cus, status, t + MONTH + 3600, created);
      Object.assign(e.data.object, { id: `sub_second_${u.id}`, metadata: { userId: u.id } });
      return e;
    };
    await deliver(first('customer.subscription.created', 'active', t));
    await deliver(second('customer.subscription.created', 'active', t + 1));
    expect((await userItem(u.id)).planExpiry).toBe(new Date((t + MONTH + 3600) * 1000).toISOString());

    await deliver(second('customer.subscription.deleted', 'canceled', t + 2));
    let item = await userItem(u.id);
    expect(item.plan).toBe('pro');
    expect(item.planExpiry).toBe(new Date((t + MONTH) * 1000).toISOString());
    expect((await call('planStatus', { token: u.token })).body).toMatchObject({ isPro: true });

    await deliver(first('customer.subscription.updated', 'unpaid', t + 3));
    item = await userItem(u.id);
    expect(item.plan).toBe('free');
    expect(Object.keys(item.subscriptions)).toHaveLength(2);
  });

  it('different events for one user delivered concurrently all land (no lost update)', async () => {
    const u = await registerUser();
    const t = now();
    const cus = `cus_conc_${u.id}`;
    const events = [0, 1, 2, 3].map((i) => {
      const e = subscriptionEvent('customer.subscription.created', cus, 'active', t + MONTH + i, t);
      Object.assign(e.data.object, { id: `sub_${i}_${u.id}`, metadata: { userId: u.id } });
      return e;
    });
    const results = await Promise.all(events.map((e) => deliver(e)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const item = await userItem(u.id);
    expect(Object.keys(item.subscriptions).sort()).toEqual(events.map((e) => (e.data.object as { id: string }).id).sort());
    expect(item.planExpiry).toBe(new Date((t + MONTH + 3) * 1000).toISOString());
  });

  it('an unknown event type answers 200 and changes nothing', async () => {
    const u = await registerUser();
    const res = await deliver(stripeEvent('customer.created', { id: `cus_${u.id}`, object: 'customer', metadata: { userId: u.id } }));
    expect(res.status).toBe(200);
    const item = await userItem(u.id);
    expect(item.plan).toBe('free');
    expect(item.planWrites).toBeUndefined();
  });

  it('an event for an unknown customer answers 200', async () => {
    const res = await deliver(subscriptionEvent('customer.subscription.updated', 'cus_nobody', 'active', now() + MONTH));
    expect(res.status).toBe(200);
  });

  it('a store failure answers 5xx so Stripe retries (throttling, or conflicts that do not clear)', async () => {
    const ddb = mockClient(DynamoDBDocumentClient);
    try {
      ddb.on(GetCommand).resolves({ Item: { ...keys.user('u-fault'), id: 'u-fault' } });
      ddb.on(TransactWriteCommand).rejects(Object.assign(new Error('Rate of requests exceeds the allowed throughput'), { name: 'ProvisionedThroughputExceededException' }));
      const throttled = await deliver(checkoutCompleted('u-fault', 'cus_fault'));
      expect(throttled.status).toBe(500);
      expect(JSON.stringify(throttled.body)).not.toMatch(/throughput/);

      ddb.on(TransactWriteCommand).rejects(
        Object.assign(new Error('Transaction cancelled'), { name: 'TransactionCanceledException', CancellationReasons: [{ Code: 'TransactionConflict' }, { Code: 'None' }] }),
      );
      expect((await deliver(checkoutCompleted('u-fault', 'cus_fault'))).status).toBe(500);
      expect(ddb.commandCalls(TransactWriteCommand).length).toBe(1 + 4); // one throttled, then 4 conflict attempts
    } finally {
      ddb.restore();
    }
  });

  it('a base64-encoded body (API Gateway isBase64Encoded, were a binary media type set) verifies', async () => {
    const u = await registerUser();
    const payload = JSON.stringify(checkoutCompleted(u.id, `cus_${u.id}`));
    const text = toEvent({
      method: routes.stripeWebhook.method, path: routes.stripeWebhook.path, routePath: routes.stripeWebhook.path, pathParameters: {}, rawQueryString: '',
      headers: { 'content-type': 'application/octet-stream', 'stripe-signature': sign(payload) },
      body: Buffer.from(payload), sourceIp: '127.0.0.1',
    });
    // Without binary media types the REST API passes any body as text.
    expect(text).toMatchObject({ body: payload, isBase64Encoded: false });
    const event = { ...text, body: Buffer.from(payload).toString('base64'), isBase64Encoded: true };
    const res = await webhookHandler(event);
    expect(res.statusCode).toBe(200);
    expect((await userItem(u.id)).plan).toBe('pro');
  });
});

describe('checkout and portal (local mode)', () => {
  it('checkout in a currency other than USD or BRL answers 400', async () => {
    const u = await registerUser();
    const res = await call('checkout', { token: u.token, body: { currency: 'EUR' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual(expect.any(String));
  });

  it('checkout needs a login', async () => {
    expect((await call('checkout', { body: { currency: 'USD' } })).status).toBe(401);
  });

  it('checkout without a Stripe key answers a local simulator URL', async () => {
    const u = await registerUser();
    const res = await call<{ url: string }>('checkout', { token: u.token, body: { currency: 'BRL' } });
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(/^http:\/\/localhost:3000\/local\/checkout\/cs_local_[0-9a-f]+$/);
  });

  it("checkout and portal return to the caller's origin when it is one of the site's (localhost or 127.0.0.1 on its port), else to APP_URL", async () => {
    const checkoutFrom = async (origin: string | undefined) => {
      const u = await registerUser();
      const res = await call<{ url: string }>('checkout', { token: u.token, body: { currency: 'USD' }, headers: origin === undefined ? {} : { origin } });
      expect(res.status, origin).toBe(200);
      const session = localCheckoutSessions.get(res.body.url.split('/').pop()!)!;
      return { page: res.body.url.replace(/cs_local_[0-9a-f]+$/, ''), success: session.successUrl, cancel: session.cancelUrl };
    };
    expect(await checkoutFrom('http://127.0.0.1:3000')).toEqual({
      page: 'http://127.0.0.1:3000/local/checkout/',
      success: 'http://127.0.0.1:3000/billing/success?session_id={CHECKOUT_SESSION_ID}',
      cancel: 'http://127.0.0.1:3000/billing/cancelled',
    });
    expect((await checkoutFrom('http://[::1]:3000')).cancel).toBe('http://[::1]:3000/billing/cancelled');
    // No Origin (not a browser): APP_URL.
    expect(await checkoutFrom(undefined)).toEqual({
      page: 'http://localhost:3000/local/checkout/',
      success: 'http://localhost:3000/billing/success?session_id={CHECKOUT_SESSION_ID}',
      cancel: 'http://localhost:3000/billing/cancelled',
    });
    // Another site, another port, another scheme, an opaque origin: refused before anything starts (a request from another site).
    for (const origin of ['https://attacker.example', 'http://127.0.0.1:3001', 'https://localhost:3000', 'http://localhost.attacker.example:3000', 'null']) {
      const u = await registerUser();
      const before = localCheckoutSessions.size;
      const res = await call('checkout', { token: u.token, body: { currency: 'USD' }, headers: { origin } });
      expect(res, origin).toMatchObject({ status: 403, body: { code: 'cross_site' } });
      expect(localCheckoutSessions.size, origin).toBe(before);
    }

    const u = await registerUser();
    await deliver(checkoutCompleted(u.id, `cus_origin_${u.id}`));
    const portal = (origin: string) => call<{ url: string }>('portal', { token: u.token, headers: { origin } });
    expect((await portal('http://127.0.0.1:3000')).body.url).toBe(`http://127.0.0.1:3000/local/portal/cus_origin_${u.id}`);
    expect((await portal('https://attacker.example')).status).toBe(403);
  });

  it('while a checkout is open: the same currency answers the same page, another currency is refused, a concurrent one never opens a second', async () => {
    const u = await registerUser();
    const first = await call<{ url: string }>('checkout', { token: u.token, body: { currency: 'USD' } });
    expect(first.status).toBe(200);
    const again = await call<{ url: string }>('checkout', { token: u.token, body: { currency: 'USD' } });
    expect(again.body.url).toBe(first.body.url);
    const other = await call('checkout', { token: u.token, body: { currency: 'BRL' } });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ code: 'checkout_open', secondsLeft: expect.any(Number) });
    expect(other.body.secondsLeft as number).toBeGreaterThan(25 * 60);
    expect((await userItem(u.id)).checkoutCurrency).toBe('USD');

    const v = await registerUser();
    const both = await Promise.all(['USD', 'BRL'].map((currency) => call<{ url?: string; code?: string }>('checkout', { token: v.token, body: { currency } })));
    const opened = both.filter((r) => r.status === 200);
    expect(opened).toHaveLength(1);
    expect(both.find((r) => r.status !== 200)?.body.code).toBe('checkout_open');
    const sessionId = opened[0]!.body.url!.split('/').pop()!;
    expect([...localCheckoutSessions.values()].filter((s) => s.userId === v.id).map((s) => s.id)).toEqual([sessionId]);
  });

  it('cancelling the open checkout ends it and lets a new one start at once; nothing open is fine', async () => {
    const u = await registerUser();
    expect((await call('cancelCheckout', { token: u.token })).body).toEqual({ ok: true });
    const first = await call<{ url: string }>('checkout', { token: u.token, body: { currency: 'USD' } });
    const firstId = first.body.url.split('/').pop()!;
    expect((await call('cancelCheckout', { token: u.token })).status).toBe(200);
    expect(localCheckoutSessions.has(firstId)).toBe(false);
    const next = await call<{ url: string }>('checkout', { token: u.token, body: { currency: 'BRL' } });
    expect(next.status).toBe(200);
    expect(next.body.url).not.toBe(first.body.url);
    expect((await call('cancelCheckout', {})).status).toBe(401);
  });

  it("the webhook closes the checkout it completes or expires, never a newer one", async () => {
    const u = await registerUser();
    const first = await call<{ url: string }>('checkout', { token: u.token, body: { currency: 'USD' } });
    const firstId = first.body.url.split('/').pop()!;
    await deliver(stripeEvent('checkout.session.expired', { id: 'cs_some_older_one', object: 'checkout.session', client_reference_id: u.id }));
    expect((await userItem(u.id)).checkoutId).toBe(firstId);
    await deliver(stripeEvent('checkout.session.expired', { id: firstId, object: 'checkout.session', client_reference_id: u.id }));
    const item = await userItem(u.id);
    expect(item.checkoutId).toBeUndefined();
    expect(item.checkoutUntil).toBeUndefined();
    expect((await call('checkout', { token: u.token, body: { currency: 'BRL' } })).status).toBe(200);
  });

  it('a Pro user is told they already have Pro', async () => {
    const u = await registerUser();
    await setPlan(u.id, 'pro', new Date(Date.now() + 86_400_000).toISOString());
    const res = await call('checkout', { token: u.token, body: { currency: 'USD' } });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('You already have Pro');
  });

  it('renewal needs a login, and a user with nothing cancelled to renew is told so', async () => {
    expect((await call('resumeSubscription', {})).status).toBe(401);
    const free = await registerUser();
    const res = await call('resumeSubscription', { token: free.token });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'no_subscription' });
  });

  it("a portal request only ever reaches the caller's own customer", async () => {
    const a = await registerUser();
    const b = await registerUser();
    await deliver(checkoutCompleted(a.id, 'cus_A'));
    const resB = await call('portal', { token: b.token });
    expect(resB.status).toBe(404);
    expect(resB.body.error).toBe('No subscription to manage');
    const resA = await call<{ url: string }>('portal', { token: a.token });
    expect(resA.status).toBe(200);
    expect(resA.body.url).toBe('http://localhost:3000/local/portal/cus_A');
    expect((await call('portal', {})).status).toBe(401);
  });
});

describe('checkout, portal and renewal against the Stripe API (fake server)', () => {
  const requests: { method: string; path: string; form: URLSearchParams }[] = [];
  /** What the fake answers to the next subscription updates, in turn. */
  const subscriptionAnswers: { status: number; body: object }[] = [];
  /** The fake's clock (epoch seconds): its answers' Date header. */
  let stripeClock = now();
  let api: Server;

  beforeAll(async () => {
    api = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        requests.push({ method: req.method ?? '', path: req.url ?? '', form: new URLSearchParams(body) });
        if (req.url?.startsWith('/v1/subscriptions/')) {
          const answer = subscriptionAnswers.shift() ?? { status: 500, body: { error: { type: 'api_error', message: 'no answer queued' } } };
          res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': 'req_fake', date: new Date(stripeClock * 1000).toUTCString() });
          return void res.end(JSON.stringify(answer.body));
        }
        res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_fake' });
        if (req.url === '/v1/checkout/sessions') res.end(JSON.stringify({ id: 'cs_test_1', object: 'checkout.session', url: 'https://checkout.stripe.com/c/pay/cs_test_1' }));
        else res.end(JSON.stringify({ id: 'bps_1', object: 'billing_portal.session', url: 'https://billing.stripe.com/p/session/test_1' }));
      });
    });
    await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
    const { port } = api.address() as AddressInfo;
    setStripeClientForTests(new Stripe('sk_test_fake', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0, telemetry: false }));
    process.env.STRIPE_PRICE_USD = 'price_usd_test';
    process.env.STRIPE_PRICE_BRL = 'price_brl_test';
    resetEnv();
  });

  afterAll(async () => {
    setStripeClientForTests(undefined);
    delete process.env.STRIPE_PRICE_USD;
    delete process.env.STRIPE_PRICE_BRL;
    resetEnv();
    await new Promise((r) => api.close(r));
  });

  afterEach(() => {
    requests.length = 0;
    subscriptionAnswers.length = 0;
  });

  it('creates a subscription checkout with the currency price, the user as reference and the return URLs', async () => {
    const u = await registerUser();
    const res = await call<{ url: string }>('checkout', { token: u.token, body: { currency: 'BRL' } });
    expect(res.status).toBe(200);
    expect(res.body.url).toBe('https://checkout.stripe.com/c/pay/cs_test_1');
    const [req] = requests;
    expect(req?.path).toBe('/v1/checkout/sessions');
    const f = req!.form;
    expect(f.get('mode')).toBe('subscription');
    expect(f.get('line_items[0][price]')).toBe('price_brl_test');
    expect(f.get('line_items[0][quantity]')).toBe('1');
    expect(f.get('client_reference_id')).toBe(u.id);
    expect(f.get('customer_email')).toBe(u.email);
    expect(f.get('customer')).toBeNull();
    expect(f.get('metadata[userId]')).toBe(u.id);
    expect(f.get('subscription_data[metadata][userId]')).toBe(u.id);
    expect(f.get('success_url')).toBe('http://localhost:3000/billing/success?session_id={CHECKOUT_SESSION_ID}');
    expect(f.get('cancel_url')).toBe('http://localhost:3000/billing/cancelled');
    const expiresAt = Number(f.get('expires_at'));
    expect(expiresAt - now()).toBeGreaterThanOrEqual(30 * 60 - 5);
    expect(expiresAt - now()).toBeLessThanOrEqual(30 * 60);
  });

  it('cancel expires the open session at Stripe; a failed creation leaves no checkout open', async () => {
    const u = await registerUser();
    await call('checkout', { token: u.token, body: { currency: 'USD' } });
    expect((await userItem(u.id)).checkoutId).toBe('cs_test_1');
    requests.length = 0;
    expect((await call('cancelCheckout', { token: u.token })).status).toBe(200);
    expect(requests.map((r) => r.path)).toEqual(['/v1/checkout/sessions/cs_test_1/expire']);
    expect((await userItem(u.id)).checkoutId).toBeUndefined();

    delete process.env.STRIPE_PRICE_BRL;
    resetEnv();
    try {
      expect((await call('checkout', { token: u.token, body: { currency: 'BRL' } })).status).toBe(500);
      expect((await userItem(u.id)).checkoutUntil).toBeUndefined();
    } finally {
      process.env.STRIPE_PRICE_BRL = 'price_brl_test';
      resetEnv();
    }
  });

  it("returns to the caller's origin only when it is the site's: a deployed site has just its own domain", async () => {
    const returns = async (origin: string) => {
      const u = await registerUser();
      requests.length = 0;
      await call('checkout', { token: u.token, body: { currency: 'USD' }, headers: { origin } });
      const f = requests[0]!.form;
      return [f.get('success_url'), f.get('cancel_url')];
    };
    expect(await returns('http://127.0.0.1:3000')).toEqual([
      'http://127.0.0.1:3000/billing/success?session_id={CHECKOUT_SESSION_ID}',
      'http://127.0.0.1:3000/billing/cancelled',
    ]);
    process.env.APP_URL = 'https://transcribe.example.com';
    resetEnv();
    try {
      const site = ['https://transcribe.example.com/billing/success?session_id={CHECKOUT_SESSION_ID}', 'https://transcribe.example.com/billing/cancelled'];
      expect(await returns('https://transcribe.example.com')).toEqual(site);
      // Any other origin is another site's: refused, nothing asked of Stripe.
      for (const origin of ['http://localhost:3000', 'http://127.0.0.1:3000', 'https://attacker.example', 'http://transcribe.example.com']) {
        const u = await registerUser();
        requests.length = 0;
        expect((await call('checkout', { token: u.token, body: { currency: 'USD' }, headers: { origin } })).status, origin).toBe(403);
        expect(requests, origin).toEqual([]);
      }
    } finally {
      process.env.APP_URL = 'http://localhost:3000';
      resetEnv();
    }
  });

  it("reuses the user's Stripe customer", async () => {
    const u = await registerUser();
    await deliver(checkoutCompleted(u.id, `cus_reuse_${u.id}`)); // an earlier subscription, since ended:
    await setPlan(u.id, 'free', null);
    await call('checkout', { token: u.token, body: { currency: 'USD' } });
    const f = requests[0]!.form;
    expect(f.get('customer')).toBe(`cus_reuse_${u.id}`);
    expect(f.get('customer_email')).toBeNull();
    expect(f.get('line_items[0][price]')).toBe('price_usd_test');
  });

  it("opens the portal for the caller's customer with the profile as return URL, at the caller's origin when it is the site's", async () => {
    const u = await registerUser();
    await deliver(checkoutCompleted(u.id, `cus_portal_${u.id}`));
    const res = await call<{ url: string }>('portal', { token: u.token });
    expect(res.body.url).toBe('https://billing.stripe.com/p/session/test_1');
    expect(requests[0]?.path).toBe('/v1/billing_portal/sessions');
    expect(requests[0]?.form.get('customer')).toBe(`cus_portal_${u.id}`);
    expect(requests[0]?.form.get('return_url')).toBe('http://localhost:3000/profile');
    await call('portal', { token: u.token, headers: { origin: 'http://127.0.0.1:3000' } });
    expect(requests[1]?.form.get('return_url')).toBe('http://127.0.0.1:3000/profile');
    expect((await call('portal', { token: u.token, headers: { origin: 'https://attacker.example' } })).status).toBe(403);
    expect(requests).toHaveLength(2);
  });

  it('deleting the account cancels its running subscription through the Stripe API, and nothing when Stripe fails', async () => {
    const u = await registerUser();
    await deliver(checkoutCompleted(u.id, `cus_gone_${u.id}`));
    await deliver(subscriptionEvent('customer.subscription.created', `cus_gone_${u.id}`, 'active', now() + MONTH));
    // Stripe down: nothing is deleted, the account stays as it was.
    subscriptionAnswers.push({ status: 500, body: { error: { type: 'api_error', message: 'down' } } });
    const failed = await call('deleteAccount', { token: u.token, body: { password: u.password } });
    expect(failed.status).toBe(500);
    expect((await call('getMe', { token: u.token })).status).toBe(200);
    requests.length = 0;
    subscriptionAnswers.push({ status: 200, body: { id: `sub_cus_gone_${u.id}`, object: 'subscription', status: 'canceled' } });
    const res = await call('deleteAccount', { token: u.token, body: { password: u.password } });
    expect(res.status).toBe(200);
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([`DELETE /v1/subscriptions/sub_cus_gone_${u.id}`]);
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: keys.user(u.id), ConsistentRead: true }))).Item).toBeUndefined();
    // Stripe's own event about it, arriving after, finds no one and recreates nothing.
    const late = await deliver(subscriptionEvent('customer.subscription.deleted', `cus_gone_${u.id}`, 'canceled', now() + MONTH));
    expect(late.status).toBe(200);
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: keys.user(u.id), ConsistentRead: true }))).Item).toBeUndefined();
  });

  it('a missing price id is a logged server error, not a checkout', async () => {
    delete process.env.STRIPE_PRICE_USD;
    resetEnv();
    const u = await registerUser();
    const res = await call('checkout', { token: u.token, body: { currency: 'USD' } });
    expect(res.status).toBe(500);
    expect(JSON.stringify(res.body)).not.toMatch(/STRIPE_PRICE/);
    expect(requests).toHaveLength(0);
    process.env.STRIPE_PRICE_USD = 'price_usd_test';
    resetEnv();
  });

  /** A user whose subscription (`sub_<customer>`) is set to cancel at `periodEnd`, as the portal's Cancel leaves it. */
  async function cancelledSubscriber(periodEnd: number, cancelledAt: number) {
    const u = await registerUser();
    const customer = `cus_renew_${u.id}`;
    await deliver(checkoutCompleted(u.id, customer, cancelledAt - 100));
    const cancel = subscriptionEvent('customer.subscription.updated', customer, 'active', periodEnd, cancelledAt);
    Object.assign(cancel.data.object, { cancel_at_period_end: true, cancel_at: periodEnd });
    await deliver(cancel);
    expect((await call('planStatus', { token: u.token })).body).toMatchObject({ isPro: true, planRenews: false });
    return { u, customer, subscription: `sub_${customer}` };
  }

  const subscriptionObject = (id: string, customer: string, periodEnd: number, cancel: { at_period_end: boolean; at: number | null }) => ({
    id, object: 'subscription', customer, status: 'active', cancel_at_period_end: cancel.at_period_end, cancel_at: cancel.at,
    metadata: {}, items: { object: 'list', data: [{ id: 'si_1', object: 'subscription_item', current_period_end: periodEnd }] },
  });

  it("renews a cancelled subscription at Stripe and records Stripe's answer at once, as newer than the cancellation", async () => {
    const t = now();
    const end = t + MONTH;
    const { u, customer, subscription } = await cancelledSubscriber(end, t - 5);
    // Stripe's clock a few seconds ahead of this machine's.
    const answeredAt = t + 7;
    stripeClock = answeredAt;
    subscriptionAnswers.push({ status: 200, body: subscriptionObject(subscription, customer, end, { at_period_end: false, at: null }) });
    const res = await call<{ isPro: boolean; planRenews: boolean; planExpiry: string }>('resumeSubscription', { token: u.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ plan: 'pro', isPro: true, planRenews: true, planExpiry: new Date(end * 1000).toISOString() });
    expect(requests.map((r) => r.path)).toEqual([`/v1/subscriptions/${subscription}`]);
    expect(requests[0]!.form.get('cancel_at_period_end')).toBe('false');
    // Recorded at Stripe's second (its Date header), as the webhook would record an event of then.
    const item = await userItem(u.id);
    expect(item.subscriptions[subscription]).toMatchObject({ status: 'active', renews: true, end, at: answeredAt });
    expect(item.planRenews).toBe(true);
    expect((await call('planStatus', { token: u.token })).body).toMatchObject({ isPro: true, planRenews: true });

    // Stripe's own event about the same change, of the same second, changes nothing; a later cancellation wins again.
    const writes = item.planWrites as number;
    const same = subscriptionEvent('customer.subscription.updated', customer, 'active', end, answeredAt);
    expect((await deliver(same)).status).toBe(200);
    expect((await userItem(u.id)).planWrites).toBe(writes);
    const cancelAgain = subscriptionEvent('customer.subscription.updated', customer, 'active', end, answeredAt + 1);
    Object.assign(cancelAgain.data.object, { cancel_at_period_end: true });
    await deliver(cancelAgain);
    expect((await call('planStatus', { token: u.token })).body).toMatchObject({ isPro: true, planRenews: false });
  });

  it('a renewal Stripe answers in the same second as the cancellation still counts as newer; a cancel_at date is cleared too', async () => {
    const t = now();
    const end = t + MONTH;
    const { u, customer, subscription } = await cancelledSubscriber(end, t);
    stripeClock = t;
    subscriptionAnswers.push(
      { status: 200, body: subscriptionObject(subscription, customer, end, { at_period_end: false, at: end - 3600 }) },
      { status: 200, body: subscriptionObject(subscription, customer, end, { at_period_end: false, at: null }) },
    );
    const res = await call('resumeSubscription', { token: u.token });
    expect(res.body).toMatchObject({ isPro: true, planRenews: true });
    expect(requests.map((r) => [r.path, r.form.get('cancel_at_period_end'), r.form.get('cancel_at')])).toEqual([
      [`/v1/subscriptions/${subscription}`, 'false', null],
      [`/v1/subscriptions/${subscription}`, null, ''],
    ]);
    expect((await userItem(u.id)).subscriptions[subscription]).toMatchObject({ renews: true, at: t + 1 });
  });

  it('a subscription Stripe can no longer change answers 409 not_resumable and leaves the plan as it was', async () => {
    const t = now();
    const { u } = await cancelledSubscriber(t + MONTH, t - 5);
    subscriptionAnswers.push({ status: 400, body: { error: { type: 'invalid_request_error', message: 'A canceled subscription can only update its cancellation_details and metadata.' } } });
    const res = await call('resumeSubscription', { token: u.token });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'not_resumable' });
    expect((await userItem(u.id)).planRenews).toBe(false);
  });
});

describe('local checkout simulator', () => {
  let server: Server;
  let base: string;

  // A minimal stand-in for the local server: the simulator page first, then the real webhook
  // handler. (local/server.ts loads handlers with a variable dynamic import that vite's test
  // runner cannot resolve two folders deep; under tsx, in `npm start`, it works.)
  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (await checkoutSimulator(req, res, url, body)) return;
      if (req.method !== routes.stripeWebhook.method || url.pathname !== routes.stripeWebhook.path) return void res.writeHead(404).end();
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      const out = await webhookHandler(
        toEvent({ method: req.method, path: url.pathname, routePath: routes.stripeWebhook.path, pathParameters: {}, rawQueryString: '', headers, body, sourceIp: '127.0.0.1' }),
      );
      res.writeHead(out.statusCode ?? 200, out.headers as Record<string, string>).end(out.body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const localPath = (url: string) => new URL(url).pathname;
  const post = (path: string, action: string) =>
    fetch(`${base}${path}`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `action=${action}` });

  it('Pay sends signed events to the local webhook, the user becomes pro; the portal cancels, Renew (the API) and the portal renew, the period ends: free', async () => {
    const u = await registerUser();
    const checkout = await call<{ url: string }>('checkout', { token: u.token, body: { currency: 'USD' } });
    const path = localPath(checkout.body.url);
    const sessionId = path.split('/').pop()!;

    const page = await fetch(`${base}${path}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    expect(html).toMatch(/<h1>[^<]*Live Transcribe Pro<\/h1>/);
    expect(html).toContain('$6.00');
    expect(html).toMatch(/<form method="post">[\s\S]*>Pay<\/button>[\s\S]*>Cancel<\/button>[\s\S]*<\/form>/);

    const paid = await post(path, 'pay');
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`http://localhost:3000/billing/success?session_id=${sessionId}`);

    const status = await call('planStatus', { token: u.token });
    expect(status.body).toMatchObject({ plan: 'pro', isPro: true });
    const item = await userItem(u.id);
    expect(item.stripeCustomerId).toBe(`cus_local_${u.id}`);
    expect(item.planWrites).toBe(2); // checkout.session.completed, then the newer subscription.created
    expect(Date.parse(item.planExpiry)).toBeGreaterThan(Date.now() + 27 * 86_400_000);

    // the session is single use
    expect((await fetch(`${base}${path}`)).status).toBe(404);

    const portal = await call<{ url: string }>('portal', { token: u.token });
    expect(portal.body.url).toBe(`http://localhost:3000/local/portal/cus_local_${u.id}`);
    const portalPath = localPath(portal.body.url);
    const portalHtml = await (await fetch(`${base}${portalPath}`)).text();
    expect(portalHtml).toContain('>Cancel subscription</button>');
    // Back to the profile on the origin the portal was opened from.
    expect(portalHtml).toContain('<a href="/profile">Return</a>');

    // Cancel, as Stripe's default portal does: Pro until the end of the paid period, not renewing.
    const cancelled = await post(portalPath, 'cancel');
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.get('location')).toBe(portalPath);
    const stillPro = await call<{ plan: string; planExpiry: string; planRenews: boolean }>('planStatus', { token: u.token });
    expect(stillPro.body).toMatchObject({ plan: 'pro', isPro: true, planRenews: false, planExpiry: item.planExpiry });
    const cancelledHtml = await (await fetch(`${base}${portalPath}`)).text();
    expect(cancelledHtml).toContain('It will not renew.');
    expect(cancelledHtml).toContain('>Renew subscription</button>');

    // The plan card's Renew: the simulator answers for Stripe, and the plan renews at once.
    const renewed = await call('resumeSubscription', { token: u.token });
    expect(renewed.status).toBe(200);
    expect(renewed.body).toEqual({ plan: 'pro', isPro: true, planRenews: true, planExpiry: item.planExpiry });
    expect((await call('planStatus', { token: u.token })).body).toMatchObject({ isPro: true, planRenews: true });
    expect(await (await fetch(`${base}${portalPath}`)).text()).toContain('>Cancel subscription</button>');
    // Already renewing: nothing to do, nothing written.
    const writes = (await userItem(u.id)).planWrites as number;
    expect((await call('resumeSubscription', { token: u.token })).body).toMatchObject({ isPro: true, planRenews: true });
    expect((await userItem(u.id)).planWrites).toBe(writes);
    // The portal's cancellation, at once after the renewal, is newer than it.
    await post(portalPath, 'cancel');
    expect((await call('planStatus', { token: u.token })).body).toMatchObject({ isPro: true, planRenews: false });

    // Renew in the portal undoes it too; cancel again, then the period ends: free, and nothing to renew.
    await post(portalPath, 'renew');
    expect((await call('planStatus', { token: u.token })).body).toMatchObject({ isPro: true, planRenews: true });
    await post(portalPath, 'cancel');
    const ended = await post(portalPath, 'end');
    expect(ended.headers.get('location')).toBe('/profile');
    expect((await call('planStatus', { token: u.token })).body).toMatchObject({ plan: 'free', isPro: false });
    expect(await (await fetch(`${base}${portalPath}`)).text()).toContain('No active subscription.');
    const none = await call('resumeSubscription', { token: u.token });
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ code: 'no_subscription' });
  });

  it('deleting the account ends the subscription: the portal shows it cancelled', async () => {
    const u = await registerUser();
    const checkout = await call<{ url: string }>('checkout', { token: u.token, body: { currency: 'USD' } });
    expect((await post(localPath(checkout.body.url), 'pay')).status).toBe(303);
    const portalPath = localPath((await call<{ url: string }>('portal', { token: u.token })).body.url);
    expect(await (await fetch(`${base}${portalPath}`)).text()).toContain('>Cancel subscription</button>');

    expect((await call('deleteAccount', { token: u.token, body: { password: u.password } })).status).toBe(200);
    const html = await (await fetch(`${base}${portalPath}`)).text();
    expect(html).toMatch(/Live Transcribe Pro: cancelled on [^<]+\. It has ended and will not renew\./);
    expect(html).not.toContain('>Cancel subscription</button>');
  });

  it('shows the BRL price as charged, and Cancel goes to the cancel URL without a payment', async () => {
    const u = await registerUser();
    const checkout = await call<{ url: string }>('checkout', { token: u.token, body: { currency: 'BRL' } });
    const path = localPath(checkout.body.url);
    const html = await (await fetch(`${base}${path}`)).text();
    expect(html.replace(/\u00a0/g, ' ')).toContain('R$ 35,00');
    const res = await post(path, 'cancel');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('http://localhost:3000/billing/cancelled');
    expect((await userItem(u.id)).plan).toBe('free');
  });

  it('an unknown session answers a 404 page', async () => {
    const res = await fetch(`${base}/local/checkout/cs_local_nope`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('<h1>Checkout not found</h1>');
  });
});
