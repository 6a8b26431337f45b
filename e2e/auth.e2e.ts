import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { routeUrl } from '@app/shared/routes';
import { LOGIN_CAPTCHA_AFTER } from '../shared/src/constants.ts';
import { ACCOUNT_PASSWORD, mailsTo, newContext, registerAccount, uniqueEmail } from './browser.ts';
import { dismissUpgradeModal, logOut, openBrowser, sessionToken, signUp, submitLogin } from './journeys.ts';

/** The account journey, as a person does it, selecting by role and accessible name. */
const browser = await openBrowser();

async function logIn(page: Page, email: string, password: string, { firstHomeVisit = false } = {}) {
  await page.goto('/login');
  await submitLogin(page, email, password);
  await page.waitForURL((url) => url.pathname === '/');
  if (firstHomeVisit) await dismissUpgradeModal(page);
  await page.getByRole('button', { name: 'Account menu' }).waitFor();
}

describe('accounts', () => {
  it('register, log out, log in, reset the password from the mailed link, log in with the new one', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const email = uniqueEmail('journey');

    await signUp(page, { name: 'Journey Tester', email, password: 'first-password-1' });
    const main = page.getByRole('main');
    await expect.poll(() => page.getByText('Account created successfully!').isVisible()).toBe(true);
    await dismissUpgradeModal(page);

    // The session is in an HttpOnly cookie: no page script can read the token (sessions.e2e.ts).
    const token = await sessionToken(context);
    expect(token).toBeTruthy();
    expect((await page.request.get(routeUrl('getMe'), { headers: { authorization: `Bearer ${token}` } })).status()).toBe(200);
    // Logging out ends the session on the server too: the token it held is refused afterwards, and the cookie is gone.
    await logOut(page);
    await expect.poll(() => sessionToken(context)).toBeUndefined();
    await expect.poll(async () => (await page.request.get(routeUrl('getMe'), { headers: { authorization: `Bearer ${token}` } })).status()).toBe(401);

    // A wrong password is refused with the server's message; the right one works.
    await page.goto('/login');
    await submitLogin(page, email, 'not-the-password');
    await expect.poll(() => main.getByText('Invalid email or password.').isVisible()).toBe(true);
    await logIn(page, email, 'first-password-1');
    await logOut(page);

    // Forgot password: the link arrives in the local outbox.
    await page.goto('/forgot-password');
    await main.getByLabel('Email').fill(email);
    await main.getByRole('button', { name: 'Send reset link' }).click();
    await expect.poll(() => main.getByRole('status').filter({ hasText: 'Check your email for the password reset link.' }).isVisible()).toBe(true);
    // The first mail was the verification link of sign-up.
    const mails = (await mailsTo(email)).filter((m) => m.subject === 'Reset your password');
    expect(mails).toHaveLength(1);
    // The token rides in the fragment, never sent to a server.
    const link = /https?:\/\/\S+\/reset-password#[A-Za-z0-9_-]{43}/.exec(mails[0]!.text)?.[0];
    expect(link).toBeTruthy();
    const resetToken = new URL(link!).hash.slice(1);

    // A second request within the hour is refused with a countdown.
    await main.getByRole('button', { name: 'Send reset link' }).click();
    await expect.poll(() => main.getByText(/Please wait \d\d:\d\d before requesting again\./).isVisible()).toBe(true);

    await page.goto(new URL(link!).pathname + new URL(link!).hash);
    await main.getByLabel('New password').waitFor();
    // The page takes the token out of the address at once and sends no referrer.
    expect(page.url()).not.toContain(resetToken);
    expect(new URL(page.url()).pathname).toBe('/reset-password');
    expect(await page.locator('meta[name="referrer"]').getAttribute('content')).toBe('no-referrer');
    await main.getByLabel('New password').fill('second-password-2');
    await main.getByLabel('Confirm password').fill('second-password-2');
    await main.getByRole('button', { name: 'Update password' }).click();
    await expect.poll(() => main.getByText('Password updated successfully!').isVisible()).toBe(true);
    await page.waitForURL((url) => url.pathname === '/login', { timeout: 5000 });

    // The old password no longer works; the new one does.
    await submitLogin(page, email, 'first-password-1');
    await expect.poll(() => main.getByText('Invalid email or password.').isVisible()).toBe(true);
    await logIn(page, email, 'second-password-2');

    // The used link is spent (opened in the old shape, token in the path, which still works).
    await page.goto(`/reset-password/${resetToken}`);
    await main.getByLabel('New password').waitFor();
    expect(page.url()).not.toContain(resetToken);
    await main.getByLabel('New password').fill('third-password-3');
    await main.getByLabel('Confirm password').fill('third-password-3');
    await main.getByRole('button', { name: 'Update password' }).click();
    await expect.poll(() => main.getByRole('link', { name: 'Request a new reset link' }).isVisible()).toBe(true);
    await context.close();
  });

  it('switching the interface language to Portuguese is kept on the profile; changing the password there signs out the other device', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const { email } = await registerAccount(page.request, 'lang');
    await logIn(page, email, ACCOUNT_PASSWORD, { firstHomeVisit: true });

    await page.goto('/profile');
    await page.getByRole('button', { name: 'Português' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Sua conta' }).isVisible()).toBe(true);
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('pt');
    expect(await page.getByRole('button', { name: 'Português' }).getAttribute('aria-pressed')).toBe('true');

    // The choice is saved on the account: a fresh device with an English browser gets Portuguese after login.
    const other = await newContext(browser, { locale: 'en-US' });
    const page2 = await other.newPage();
    await page2.goto('/login');
    await submitLogin(page2, email, ACCOUNT_PASSWORD);
    await page2.waitForURL((url) => url.pathname === '/');
    await page2.goto('/profile');
    await expect.poll(() => page2.getByRole('heading', { name: 'Sua conta' }).isVisible()).toBe(true);

    // Changing the password on the first device: the server's refusal of a common one, in Portuguese, then a strong one.
    const main = page.getByRole('main');
    const tokenBefore = await sessionToken(context);
    await main.getByLabel('Senha atual').fill(ACCOUNT_PASSWORD);
    await main.getByLabel('Nova senha').fill('senha12345');
    await main.getByRole('button', { name: 'Alterar senha' }).click();
    await expect.poll(() => main.getByText(/Esta senha é fácil demais de adivinhar/).isVisible()).toBe(true);
    await main.getByLabel('Nova senha').fill('violet-harbor-lantern-42');
    await main.getByRole('button', { name: 'Alterar senha' }).click();
    await expect.poll(() => page.getByText('Senha alterada').isVisible()).toBe(true);
    const mail = (await mailsTo(email)).at(-1);
    expect(mail?.subject).toBe('Sua senha foi alterada');

    // This device stays signed in on a fresh token; the other one is signed out, and the new password signs it in.
    expect(await sessionToken(context)).not.toBe(tokenBefore);
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { name: 'Sua conta' }).isVisible()).toBe(true);
    await page2.reload();
    await expect.poll(() => page2.getByRole('heading', { name: 'Login necessário' }).isVisible()).toBe(true);
    await page2.goto('/login');
    const main2 = page2.getByRole('main');
    await main2.getByLabel('E-mail').fill(email);
    await main2.getByLabel('Senha', { exact: true }).fill('violet-harbor-lantern-42');
    await main2.getByRole('button', { name: 'Entrar', exact: true }).click();
    await page2.waitForURL((url) => url.pathname === '/');
    await other.close();
    await context.close();
  });

  it('after repeated wrong passwords, the right one still signs in (the bot check passes on its own)', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const { email } = await registerAccount(page.request, 'guarded');
    await page.goto('/login');
    const main = page.getByRole('main');
    await main.getByLabel('Email').fill(email);
    for (let i = 0; i < LOGIN_CAPTCHA_AFTER + 1; i++) {
      await main.getByLabel('Password', { exact: true }).fill(`wrong-password-${i}`);
      const answered = page.waitForResponse((r) => new URL(r.url()).pathname === routeUrl('login'));
      await main.getByRole('button', { name: 'Log in' }).click();
      await answered;
      await expect.poll(() => main.getByRole('button', { name: 'Log in' }).isEnabled()).toBe(true);
    }
    await expect.poll(() => main.getByText('Invalid email or password.').isVisible()).toBe(true);
    const sent: unknown[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === routeUrl('login')) sent.push(r.postDataJSON());
    });
    await logIn(page, email, ACCOUNT_PASSWORD, { firstHomeVisit: true });
    expect(sent).toEqual([
      { email, password: ACCOUNT_PASSWORD },
      { email, password: ACCOUNT_PASSWORD, recaptchaToken: 'test-pass' },
    ]);
    await context.close();
  });

  it('shows the 404 page on an unknown path', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/no/such/page');
    await expect.poll(() => page.getByRole('heading', { name: 'Oops! Page not found' }).isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });
});
