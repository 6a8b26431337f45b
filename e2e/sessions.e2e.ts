import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SESSION_COOKIE, TOKEN_TTL_SECONDS } from '@app/shared/constants';
import { routeUrl } from '@app/shared/routes';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '../functions/src/lib/auth.ts';
import { ACCOUNT_PASSWORD, baseUrl, newContext, registerAccount, sessionCookieOf, uniqueEmail } from './browser.ts';
import { deviceContext, dismissUpgradeModal, openApi, openBrowser, sessionToken, signUp } from './journeys.ts';

/**
 * Sessions in the browser: the token lives in an HttpOnly cookie no page script reads; another
 * site cannot make the browser change anything; sign out everywhere ends the session in another
 * browser profile; a token an earlier version kept in device storage moves into the cookie.
 */
const browser = await openBrowser();
const api = await openApi();

/**
 * Another site: http://127.0.0.1 on a port of its own is another site to a browser on
 * http://localhost. Its page posts a form to the API and, with fetch, calls a logout.
 */
let attacker: Server;
let attackerUrl: string;
beforeAll(async () => {
  const target = baseUrl();
  attacker = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>Win a prize</title>
<form method="post" action="${target}${routeUrl('logoutEverywhere')}"><input name="confirm" value="1"><button>Claim</button></form>
<script>
  fetch(${JSON.stringify(`${target}${routeUrl('logout')}`)}, { method: 'POST', mode: 'no-cors', credentials: 'include' })
    .finally(() => document.forms[0].submit());
</script>`);
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => attacker.close(() => resolve())));

/** A second session of the account, from a sign-in of its own. */
async function secondSession(email: string): Promise<string> {
  const res = await api.post(routeUrl('login'), { data: { email, password: ACCOUNT_PASSWORD } });
  expect(res.status()).toBe(200);
  return sessionCookieOf(res.headersArray())!;
}

describe('sessions', () => {
  it('no page script can read the session token: not in document.cookie, not in device storage, not in an answer', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const bodies: string[] = [];
    page.on('response', (res) => {
      if (new URL(res.url()).pathname.startsWith('/api/')) void res.text().then((t) => bodies.push(t), () => undefined);
    });
    await signUp(page, { name: 'Cookie Tester', email: uniqueEmail('cookie'), password: 'first-password-1' });
    await dismissUpgradeModal(page);
    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Your account' }).waitFor();

    const cookie = (await context.cookies(baseUrl())).find((c) => c.name === SESSION_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/', domain: new URL(baseUrl()).hostname });
    const token = cookie!.value;
    expect(token.split('.')).toHaveLength(3);
    const seen = await page.evaluate(() => {
      const values = (store: Storage) => Array.from({ length: store.length }, (_, i) => `${store.key(i)}=${store.getItem(store.key(i)!)}`);
      return { cookie: document.cookie, stored: [...values(localStorage), ...values(sessionStorage)] };
    });
    expect(seen.cookie).not.toContain(SESSION_COOKIE);
    expect(seen.cookie).not.toContain(token);
    // Device storage holds whose session it is, never a token (nothing shaped like a JWT).
    expect(seen.stored.filter((entry) => entry.includes(token) || /eyJ[\w-]+\.[\w-]+\.[\w-]+/.test(entry))).toEqual([]);
    expect(seen.stored.some((entry) => entry.startsWith('session_user='))).toBe(true);
    await expect.poll(() => bodies.length).toBeGreaterThan(1);
    expect(bodies.filter((b) => b.includes(token))).toEqual([]);
    await context.close();
  });

  it('another site cannot change anything: its form post is refused 403 and its fetch carries no session; the session goes on', async () => {
    const account = await registerAccount(api, 'cross-site');
    const context = await deviceContext(browser, { account });
    const page = await context.newPage();
    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Your account' }).waitFor();

    const answers: { path: string; status: number; body: string; cookie: string | undefined }[] = [];
    const forgedPaths = [routeUrl('logout'), routeUrl('logoutEverywhere')];
    page.on('response', (res) => {
      const url = new URL(res.url());
      if (url.origin !== baseUrl() || !forgedPaths.includes(url.pathname)) return;
      void Promise.all([res.text().catch(() => ''), res.request().headerValue('cookie')]).then(
        ([body, cookie]) => answers.push({ path: url.pathname, status: res.status(), body, cookie: cookie ?? undefined }),
        () => undefined,
      );
    });
    await page.goto(attackerUrl);
    await page.waitForURL((url) => url.pathname === routeUrl('logoutEverywhere'));
    await expect.poll(() => answers.find((a) => a.path === routeUrl('logoutEverywhere'))).toMatchObject({ status: 403 });
    const post = answers.find((a) => a.path === routeUrl('logoutEverywhere'))!;
    expect(JSON.parse(post.body)).toMatchObject({ code: 'cross_site' });
    // SameSite=Strict: the browser sent the session cookie with neither request.
    await expect.poll(() => answers.find((a) => a.path === routeUrl('logout'))?.status).toBeDefined();
    expect(answers).toHaveLength(2);
    expect(answers.map((a) => a.cookie ?? '').join()).not.toContain(SESSION_COOKIE);

    // Still signed in, on the same token.
    expect(await sessionToken(context)).toBe(account.token);
    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    expect((await api.get(routeUrl('getMe'), { headers: { authorization: `Bearer ${account.token}` } })).status()).toBe(200);
    await context.close();
  });

  it('Sign out everywhere on the profile ends the session in another browser profile too', async () => {
    const account = await registerAccount(api, 'everywhere');
    const elsewhere = { ...account, token: await secondSession(account.email) };
    const here = await deviceContext(browser, { account, signInOnce: true });
    const there = await deviceContext(browser, { account: elsewhere, signInOnce: true });
    const page = await here.newPage();
    const page2 = await there.newPage();
    await page2.goto('/profile');
    await page2.getByRole('heading', { name: 'Your account' }).waitFor();

    await page.goto('/profile');
    const section = page.getByRole('region', { name: 'Sign out everywhere' });
    await section.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('banner').getByRole('link', { name: 'Log in' }).waitFor();
    expect(await sessionToken(here)).toBeUndefined();

    // The other profile's next request is refused: it shows a visitor, and its token stays dead.
    await page2.reload();
    await page2.getByRole('heading', { name: 'Login required' }).waitFor();
    for (const token of [account.token, elsewhere.token]) {
      expect((await api.get(routeUrl('getMe'), { headers: { authorization: `Bearer ${token}` } })).status()).toBe(401);
    }
    await here.close();
    await there.close();
  });

  it('a signed-in user of an earlier version (token in device storage) stays signed in: the token moves into the cookie once and leaves storage', async () => {
    const account = await registerAccount(api, 'legacy');
    const now = Math.floor(Date.now() / 1000);
    const legacy = await new SignJWT({ tv: 0 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(account.id)
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt(now - 3600)
      .setExpirationTime(now - 3600 + TOKEN_TTL_SECONDS)
      .sign(new TextEncoder().encode(inject('tokenKey')));
    const context = await newContext(browser);
    await context.addInitScript(
      ({ token, id }) => {
        if (sessionStorage.getItem('seeded')) return;
        sessionStorage.setItem('seeded', '1');
        localStorage.setItem('token', token);
        localStorage.setItem('survey_shown', id);
      },
      { token: legacy, id: account.id },
    );
    const page = await context.newPage();
    const exchanges: number[] = [];
    page.on('response', (res) => {
      if (new URL(res.url()).pathname === routeUrl('exchangeSession')) exchanges.push(res.status());
    });
    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    expect(exchanges).toEqual([200]);
    expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('session_user')])).toEqual([null, account.id]);
    const cookie = await sessionToken(context);
    expect(cookie).toBeTruthy();
    expect(cookie).not.toBe(legacy);

    // Reloaded, the cookie alone signs it in; the old token opens nothing.
    await page.reload();
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    expect(exchanges).toEqual([200]);
    expect((await api.get(routeUrl('getMe'), { headers: { authorization: `Bearer ${legacy}` } })).status()).toBe(401);
    await context.close();
  });
});
