import { mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { decodeJwt, SignJWT } from 'jose';
import Stripe from 'stripe';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { DEV_BYPASS_HEADER } from '@app/shared/constants';
import { listVisits, visitDay } from '../src/db/analytics.ts';
import { db, tableName } from '../src/db/client.ts';
import { contactMonth, listContactMessages } from '../src/db/contact-messages.ts';
import { keys } from '../src/db/keys.ts';
import { getSiteSettings, resetSiteSettingsCache, setSiteSettings, SITE_SETTINGS_CACHE_MS } from '../src/db/site-settings.ts';
import { getUser, getUserByEmail } from '../src/db/users.ts';
import { hashPassword } from '../src/domain/passwords.ts';
import { BYPASS_AUDIENCE, TOKEN_ISSUER } from '../src/lib/auth.ts';
import { LOCAL_WEBHOOK_SECRET } from '../src/lib/stripe.ts';
import { DEV_PASSWORD_RATE } from '../src/handlers/settings/check-dev-password.ts';
import { CONTACT_RATE_PER_EMAIL, CONTACT_RATE_PER_IP } from '../src/handlers/site/send-contact.ts';
import { ANALYTICS_RATE } from '../src/handlers/site/record-analytics.ts';
import { freePort } from '../src/local/dynamo.ts';
import { OpsError, resolveTarget, runOps } from '../src/ops/ops.ts';
import { call, outbox, registerUser, uniqueEmail } from './call.ts';

let ipSeq = 0;
/** A fresh client address per test, so rate-limit windows do not leak between tests. */
const freshIp = () => `198.51.100.${++ipSeq}`;

const setDevPassword = async (password: string) => setSiteSettings({ devPasswordHash: await hashPassword(password, 12) });
const checkDev = (password: string, sourceIp: string) => call('checkDevPassword', { body: { password }, sourceIp });

describe('maintenance mode route', () => {
  it('reflects the site settings', async () => {
    await setSiteSettings({ maintenanceMode: true });
    expect((await call('maintenanceMode')).body).toEqual({ constructionMode: true });
    await setSiteSettings({ maintenanceMode: false });
    expect((await call('maintenanceMode')).body).toEqual({ constructionMode: false });
  });

  it('is stored as the item attribute constructionMode, so existing settings items keep working', async () => {
    const stored = async () =>
      (await db().send(new GetCommand({ TableName: tableName(), Key: keys.siteSettings(), ConsistentRead: true }))).Item;
    await setSiteSettings({ maintenanceMode: true });
    expect(await stored()).toMatchObject({ constructionMode: true });
    expect(await stored()).not.toHaveProperty('maintenanceMode');
    await setSiteSettings({ maintenanceMode: false });
    expect(await stored()).toMatchObject({ constructionMode: false });
  });
});

describe('check dev password', () => {
  it('answers false while no password is configured', async () => {
    expect((await getSiteSettings()).devPasswordHash).toBeUndefined();
    const res = await checkDev('anything', freshIp());
    expect(res).toMatchObject({ status: 200, body: { success: false } });
  });

  it('answers true for the right password and false for a wrong one', async () => {
    await setDevPassword('open-sesame-42');
    const ip = freshIp();
    expect((await checkDev('open-sesame-42', ip)).body).toEqual({ success: true, bypassToken: expect.any(String) });
    expect((await checkDev('open-sesame-43', ip)).body).toEqual({ success: false });
    expect((await checkDev('OPEN-SESAME-42', ip)).body).toEqual({ success: false });
  });

  it('refuses an empty password with 400 and the Portuguese message', async () => {
    const res = await checkDev('', freshIp());
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Por favor, digite uma senha');
    expect((await call('checkDevPassword', { body: {}, sourceIp: freshIp() })).status).toBe(400);
  });

  it('limits attempts per client: then 429 with secondsLeft, even for the right password', async () => {
    await setDevPassword('open-sesame-42');
    const ip = freshIp();
    for (let i = 0; i < DEV_PASSWORD_RATE.limit; i++) expect((await checkDev(`guess-${i}`, ip)).status).toBe(200);
    const limited = await checkDev('guess-x', ip);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('dev_password_rate_limited');
    expect(limited.body.secondsLeft).toBeGreaterThan(0);
    expect(limited.body.secondsLeft).toBeLessThanOrEqual(DEV_PASSWORD_RATE.windowSeconds);
    const right = await checkDev('open-sesame-42', ip);
    expect(right.status).toBe(429);
    expect(right.body).not.toHaveProperty('success');
    // another client is not affected
    expect((await checkDev('open-sesame-42', freshIp())).body).toMatchObject({ success: true });
  });
});

const contactBody = (patch: Record<string, unknown> = {}) => ({
  name: 'Rita Souza',
  email: uniqueEmail('contact'),
  subject: 'Question about Pro',
  message: 'Hello,\nhow do I export SRT?\nThanks',
  ...patch,
});
const mailsFrom = async (email: string) => (await outbox()).filter((m) => m.replyTo === email);
const storedFrom = async (email: string) => (await listContactMessages(contactMonth(new Date().toISOString()))).filter((m) => m.email === email);

describe('contact', () => {
  it('stores the message and mails it to support with the sender as reply-to', async () => {
    const body = contactBody();
    const res = await call('contact', { body, sourceIp: freshIp() });
    expect(res).toMatchObject({ status: 200, body: { ok: true } });
    const mails = await mailsFrom(body.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: 'support@localhost', replyTo: body.email, subject: '[Contact] Question about Pro' });
    expect(mails[0]!.text).toContain('Rita Souza');
    expect(mails[0]!.text).toContain(body.message);
    const stored = await storedFrom(body.email);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ name: 'Rita Souza', subject: 'Question about Pro', message: body.message });
  });

  it.each(['name', 'email', 'subject', 'message'])('refuses a missing or blank %s with 400 and sends nothing', async (field) => {
    const before = (await outbox()).length;
    const email = uniqueEmail('missing');
    const missing: Record<string, unknown> = contactBody({ email });
    delete missing[field];
    const blank = contactBody({ email, [field]: '   ' });
    for (const body of [missing, blank]) {
      const res = await call('contact', { body, sourceIp: freshIp() });
      expect(res.status).toBe(400);
      expect(typeof res.body.error).toBe('string');
    }
    expect((await outbox()).length).toBe(before);
    expect(await storedFrom(email)).toHaveLength(0);
  });

  it('refuses an email carrying a line break (header injection) and sends nothing', async () => {
    const before = (await outbox()).length;
    for (const email of ['a@example.com\r\nBcc: victim@example.com', 'a@example.com\nBcc:victim@example.com', 'a@example.com%0d%0aBcc:x@y.z']) {
      const res = await call('contact', { body: contactBody({ email }), sourceIp: freshIp() });
      expect(res.status).toBe(400);
    }
    expect((await outbox()).length).toBe(before);
  });

  it('never lets a CR or LF in any field reach a mail header', async () => {
    const email = uniqueEmail('crlf');
    const body = contactBody({
      email,
      name: 'Eve\r\nBcc: victim@example.com',
      subject: 'Hi\r\nBcc: victim@example.com\r\nX-Injected: yes\n\rContent-Type: text/html',
      message: 'Body line\r\nBcc: still just body text',
    });
    const res = await call('contact', { body, sourceIp: freshIp() });
    expect(res.status).toBe(200);
    const [mail] = await mailsFrom(email);
    expect(mail).toBeDefined();
    for (const header of [mail!.to, mail!.subject, mail!.replyTo ?? '']) {
      expect(header).not.toMatch(/[\r\n]/);
    }
    expect(mail!.subject).toBe('[Contact] Hi Bcc: victim@example.com X-Injected: yes Content-Type: text/html');
    expect(mail!.replyTo).toBe(email);
    expect(mail!.to).toBe('support@localhost');
    // No injected header line anywhere in the header fields or the name/subject lines of the text.
    const headerish = [mail!.subject, mail!.replyTo, mail!.to].join('\n');
    expect(headerish).not.toMatch(/^(Bcc|X-Injected|Content-Type):/im);
    expect(mail!.text).toContain('Name: Eve Bcc: victim@example.com');
    expect(mail!.text).not.toMatch(/^Bcc: victim/m);
    const [stored] = await storedFrom(email);
    expect(stored!.name).toBe('Eve Bcc: victim@example.com');
    expect(stored!.subject).not.toMatch(/[\r\n]/);
  });

  it(`limits messages per client address (${CONTACT_RATE_PER_IP.limit} an hour)`, async () => {
    const ip = freshIp();
    for (let i = 0; i < CONTACT_RATE_PER_IP.limit; i++) {
      expect((await call('contact', { body: contactBody(), sourceIp: ip })).status).toBe(200);
    }
    const before = (await outbox()).length;
    const body = contactBody();
    const limited = await call('contact', { body, sourceIp: ip });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'contact_rate_limited' });
    expect(limited.body.secondsLeft).toBeGreaterThan(0);
    expect((await outbox()).length).toBe(before);
    expect(await storedFrom(body.email)).toHaveLength(0);
  });

  it(`limits messages per sender email (${CONTACT_RATE_PER_EMAIL.limit} an hour), whatever the address or case`, async () => {
    const email = uniqueEmail('spammer');
    for (let i = 0; i < CONTACT_RATE_PER_EMAIL.limit; i++) {
      expect((await call('contact', { body: contactBody({ email }), sourceIp: freshIp() })).status).toBe(200);
    }
    const limited = await call('contact', { body: contactBody({ email: email.toUpperCase() }), sourceIp: freshIp() });
    expect(limited.status).toBe(429);
    expect(await mailsFrom(email)).toHaveLength(CONTACT_RATE_PER_EMAIL.limit);
  });
});

const visit = (patch: Record<string, unknown> = {}) => ({
  cookies: true,
  userAgent: `Mozilla/5.0 test-${Math.random().toString(36).slice(2)}`,
  language: 'pt-BR',
  screen: '1920x1080',
  timezone: 'America/Sao_Paulo',
  platform: 'Linux x86_64',
  deviceType: 'desktop',
  ...patch,
});
/** Visits recorded today carrying this user agent (checks both days should the test cross midnight UTC). */
async function visitsWith(userAgent: string, since: string) {
  const days = new Set([visitDay(since), visitDay(new Date().toISOString())]);
  const all = (await Promise.all([...days].map((d) => listVisits(d)))).flat();
  return all.filter((v) => v.userAgent === userAgent);
}

describe('analytics', () => {
  it('stores the visit with a TTL about 400 days ahead', async () => {
    const since = new Date().toISOString();
    const body = visit();
    const res = await call('analytics', { body, sourceIp: freshIp() });
    expect(res).toMatchObject({ status: 200, body: { ok: true } });
    const [stored] = await visitsWith(body.userAgent, since);
    expect(stored).toMatchObject({ ...body });
    expect(stored!.userId).toBeUndefined();
    const days = (stored!.expiresAt - Date.now() / 1000) / 86_400;
    expect(days).toBeGreaterThan(399);
    expect(days).toBeLessThanOrEqual(400);
  });

  it('records the user id for a valid token and ignores a bad one', async () => {
    const since = new Date().toISOString();
    const u = await registerUser();
    const withUser = visit();
    expect((await call('analytics', { body: withUser, token: u.token, sourceIp: freshIp() })).status).toBe(200);
    expect((await visitsWith(withUser.userAgent, since))[0]!.userId).toBe(u.id);
    const badToken = visit();
    expect((await call('analytics', { body: badToken, token: 'not.a.token', sourceIp: freshIp() })).status).toBe(200);
    expect((await visitsWith(badToken.userAgent, since))[0]!.userId).toBeUndefined();
  });

  it.each([{ screen: 'abc' }, { deviceType: 'tv' }, { cookies: 'yes' }, { userAgent: 'x'.repeat(513) }])(
    'refuses %j with 400 and stores nothing',
    async (patch) => {
      const since = new Date().toISOString();
      const body = visit(patch);
      const res = await call('analytics', { body, sourceIp: freshIp() });
      expect(res.status).toBe(400);
      expect(await visitsWith(body.userAgent, since)).toHaveLength(0);
    },
  );

  it(`limits visits per client address (${ANALYTICS_RATE.limit} an hour)`, async () => {
    const ip = freshIp();
    const since = new Date().toISOString();
    for (let i = 0; i < ANALYTICS_RATE.limit; i++) expect((await call('analytics', { body: visit(), sourceIp: ip })).status).toBe(200);
    const body = visit();
    const limited = await call('analytics', { body, sourceIp: ip });
    expect(limited.status).toBe(429);
    expect(limited.body.secondsLeft).toBeGreaterThan(0);
    expect(await visitsWith(body.userAgent, since)).toHaveLength(0);
  });
});

describe('ops CLI core', () => {
  const target = () => ({ endpoint: process.env.DYNAMODB_ENDPOINT!, table: process.env.TABLE_NAME! });

  it('turns maintenance mode on and off, and the route follows', async () => {
    expect(await runOps(['maintenance', 'on'], target())).toMatch(/Maintenance mode is now ON/);
    expect((await call('maintenanceMode')).body).toEqual({ constructionMode: true });
    expect(await runOps(['status'], target())).toMatch(/Maintenance mode: ON/);
    await runOps(['maintenance', 'off'], target());
    expect((await call('maintenanceMode')).body).toEqual({ constructionMode: false });
    await expect(runOps(['maintenance', 'maybe'], target())).rejects.toBeInstanceOf(OpsError);
  });

  it('sets the dev password (flag, environment or reader) as a scrypt hash that the route accepts', async () => {
    await runOps(['dev-password', '--password', 'from-the-flag'], target());
    const { devPasswordHash } = await getSiteSettings();
    expect(devPasswordHash).toMatch(/^scrypt\$/);
    expect(devPasswordHash).not.toContain('from-the-flag');
    expect((await checkDev('from-the-flag', freshIp())).body).toMatchObject({ success: true });

    process.env.DEV_PASSWORD = 'from-the-env';
    try {
      await runOps(['dev-password'], target());
    } finally {
      delete process.env.DEV_PASSWORD;
    }
    expect((await checkDev('from-the-env', freshIp())).body).toMatchObject({ success: true });
    expect((await checkDev('from-the-flag', freshIp())).body).toEqual({ success: false });

    await runOps(['dev-password'], target(), { readPassword: async () => 'from-the-prompt' });
    expect((await checkDev('from-the-prompt', freshIp())).body).toMatchObject({ success: true });
    expect(await runOps(['status'], target())).toMatch(/Dev password: set/);
  });

  it('refuses a too-short dev password and changes nothing', async () => {
    await runOps(['dev-password', '--password', 'kept-password'], target());
    await expect(runOps(['dev-password', '--password', ''], target())).rejects.toThrow(/at least|characters/);
    await expect(runOps(['dev-password', '--password', '123'], target())).rejects.toBeInstanceOf(OpsError);
    expect((await checkDev('kept-password', freshIp())).body).toMatchObject({ success: true });
  });

  it('finds the local server from local.json, and fails with one clear line otherwise', async () => {
    const dir = await mkdtemp(join(inject('tempRoot'), 'ops-'));
    await expect(resolveTarget({}, dir)).rejects.toThrow(/No local server found .*npm start/);
    await writeFile(join(dir, 'local.json'), JSON.stringify({ dynamoEndpoint: target().endpoint, tableName: target().table }));
    expect(await resolveTarget({}, dir)).toEqual(target());
    await writeFile(join(dir, 'local.json'), JSON.stringify({ dynamoEndpoint: `http://127.0.0.1:${await freePort()}`, tableName: 'x' }));
    const err = await resolveTarget({}, dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpsError);
    expect((err as Error).message).toMatch(/not reachable/);
    expect((err as Error).message).not.toContain('\n');
    expect(await resolveTarget({ table: 'Prod-Table', region: 'eu-west-1' }, dir)).toEqual({ table: 'Prod-Table', region: 'eu-west-1' });
  });
});

describe('survey memory', () => {
  it('is false for a new user and remembered once set through updateMe', async () => {
    const u = await registerUser();
    expect((await call('getMe', { token: u.token })).body).toMatchObject({ surveyShown: false });
    const res = await call('updateMe', { token: u.token, body: { surveyShown: true } });
    expect(res).toMatchObject({ status: 200, body: { surveyShown: true } });
    expect((await call('getMe', { token: u.token })).body).toMatchObject({ surveyShown: true });
    expect((await call('updateMe', { token: u.token, body: { surveyShown: 'yes' } })).status).toBe(400);
  });
});

describe('maintenance mode in the API', () => {
  const storeSettings = (on: boolean) =>
    // Written past this container's module, as another container or the ops command would
    // (maintenance mode's stored attribute is `constructionMode`).
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.siteSettings(),
        UpdateExpression: 'SET constructionMode = :on',
        ExpressionAttributeValues: { ':on': on },
      }),
    );
  const bypassFor = async (password: string) => {
    const res = await checkDev(password, freshIp());
    expect(res.body).toMatchObject({ success: true });
    return res.body.bypassToken as string;
  };
  const rename = (token: string, name: string, headers: Record<string, string> = {}) =>
    call('updateMe', { token, body: { name }, headers });

  afterEach(async () => {
    await setSiteSettings({ maintenanceMode: false });
  });

  it('on: refuses every write with 503 {error, code: maintenance}, changing nothing; reads still answer', async () => {
    const u = await registerUser();
    await setSiteSettings({ maintenanceMode: true });
    const refused = await rename(u.token, 'Changed');
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ error: expect.stringMatching(/maintenance/), code: 'maintenance' });
    expect((await getUser(u.id))!.name).toBe(u.name);

    const email = uniqueEmail('during');
    const register = await call('register', { body: { name: 'New', email, password: 'long-enough-1', recaptchaToken: 'test-pass' } });
    expect(register).toMatchObject({ status: 503, body: { code: 'maintenance' } });
    expect(await getUserByEmail(email)).toBeUndefined();
    expect((await call('login', { body: { email: u.email, password: u.password } })).status).toBe(503);

    expect((await call('getMe', { token: u.token })).body).toMatchObject({ id: u.id, name: u.name });
    expect((await call('maintenanceMode')).body).toEqual({ constructionMode: true });
    // Logging out always works.
    expect((await call('logout', { token: u.token })).status).toBe(200);
    expect((await call('getMe', { token: u.token })).status).toBe(401);
  });

  it('on: the Stripe webhook still lands', async () => {
    const u = await registerUser();
    await setSiteSettings({ maintenanceMode: true });
    const event = {
      id: `evt_maint_${Date.now().toString(36)}`, object: 'event', api_version: Stripe.API_VERSION, created: Math.floor(Date.now() / 1000),
      livemode: false, type: 'checkout.session.completed',
      data: { object: { id: 'cs_maint', object: 'checkout.session', mode: 'subscription', status: 'complete', payment_status: 'paid',
        client_reference_id: u.id, customer: `cus_${u.id}`, subscription: `sub_${u.id}`, metadata: { userId: u.id } } },
    };
    const payload = JSON.stringify(event);
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: LOCAL_WEBHOOK_SECRET });
    const res = await call('stripeWebhook', { rawBody: payload, headers: { 'stripe-signature': header } });
    expect(res).toMatchObject({ status: 200, body: { received: true } });
    expect((await getUser(u.id))!.plan).toBe('pro');
  });

  it('on: a correct dev password earns a bypass token that lets writes through', async () => {
    await setDevPassword('maint-pass-1');
    const u = await registerUser();
    await setSiteSettings({ maintenanceMode: true });
    const bypass = await bypassFor('maint-pass-1');
    expect(typeof bypass).toBe('string');
    expect((await checkDev('wrong-pass', freshIp())).body).toEqual({ success: false });
    const res = await rename(u.token, 'Dev Edit', { [DEV_BYPASS_HEADER]: bypass });
    expect(res).toMatchObject({ status: 200, body: { name: 'Dev Edit' } });
    expect((await getUser(u.id))!.name).toBe('Dev Edit');
  });

  it('on: forged, expired, misused or outdated bypass tokens are refused', async () => {
    await setDevPassword('maint-pass-2');
    const u = await registerUser();
    const outdated = await bypassFor('maint-pass-2');
    await setDevPassword('maint-pass-3');
    const current = await bypassFor('maint-pass-3');
    await setSiteSettings({ maintenanceMode: true });
    const key = new TextEncoder().encode(process.env.JWT_SECRET!);
    const claims = { pw: (decodeJwt(current) as { pw: string }).pw };
    const base = () => new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuer(TOKEN_ISSUER).setAudience(BYPASS_AUDIENCE);
    const now = Math.floor(Date.now() / 1000);
    const bad = {
      'another key': await base().setExpirationTime('1h').sign(new TextEncoder().encode('y'.repeat(40))),
      expired: await base().setIssuedAt(now - 7200).setExpirationTime(now - 3600).sign(key),
      'no expiry': await base().sign(key),
      'a session token': u.token,
      'earned with an older dev password': outdated,
      'tampered': `${current.slice(0, -4)}AAAA`,
      garbage: 'not-a-token',
    };
    for (const [label, token] of Object.entries(bad)) {
      const res = await rename(u.token, 'Nope', { [DEV_BYPASS_HEADER]: token });
      expect(res.status, label).toBe(503);
      expect(res.body.code, label).toBe('maintenance');
    }
    expect((await getUser(u.id))!.name).toBe(u.name);
    expect((await rename(u.token, 'Yes', { [DEV_BYPASS_HEADER]: current })).status).toBe(200);
  });

  it('off: writes go through, with or without a bypass header', async () => {
    const u = await registerUser();
    expect((await rename(u.token, 'Open One')).status).toBe(200);
    expect((await rename(u.token, 'Open Two', { [DEV_BYPASS_HEADER]: 'junk' })).status).toBe(200);
  });

  it(`caches "off" for ${SITE_SETTINGS_CACHE_MS / 1000} s per container; "on" is read on every write, so turning it off applies at once`, async () => {
    const u = await registerUser();
    resetSiteSettingsCache();
    expect((await rename(u.token, 'Warm')).status).toBe(200); // caches "off"
    await storeSettings(true);
    expect((await rename(u.token, 'Still Cached')).status).toBe(200);
    const realNow = Date.now.bind(Date);
    const spy = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + SITE_SETTINGS_CACHE_MS + 1000);
    try {
      expect((await rename(u.token, 'Expired Cache')).status).toBe(503);
    } finally {
      spy.mockRestore();
    }
    expect((await rename(u.token, 'Again')).status).toBe(503);
    await storeSettings(false);
    expect((await rename(u.token, 'Reopened')).status).toBe(200);
    expect((await getUser(u.id))!.name).toBe('Reopened');
  });
});
