import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { routeUrl } from '@app/shared/routes';
import { PLAN_POLL_MS, SESSION_ID_SHOWN_CHARS } from '../shared/src/constants.ts';
import { baseUrl, newContext, uniqueEmail } from './browser.ts';
import { openBrowser, openCheckout, signUp } from './journeys.ts';

/**
 * The Pro journey against the real local server and its checkout simulator:
 * upgrade modal (by itself on home, then from the saved transcriptions' Pro hint), currency, local
 * checkout, success page, Pro in the header within one poll, saved transcriptions unlocked, dark
 * theme, cancel in the local portal (Pro until the period ends), Renew on the plan card, cancel
 * again, then the period's end: back to free.
 */
const browser = await openBrowser();

/** The planStatus route, asked in the page's own session (its cookie). */
const planStatus = (page: Page) =>
  page.evaluate(async (url) => {
    const res = await fetch(url);
    return (await res.json()) as { plan: string; isPro: boolean };
  }, routeUrl('planStatus'));

const isDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains('dark'));

describe('billing', () => {
  it('free -> Pro through the local checkout; cancelled, the plan card renews it; then back to free from the portal', async () => {
    const context = await newContext(browser);
    // A controllable clock: one plan poll (30 s) without waiting for it.
    await context.clock.install();
    const page = await context.newPage();
    const banner = page.getByRole('banner');
    const main = page.getByRole('main');

    await signUp(page, { name: 'Pro Tester', email: uniqueEmail('billing'), password: 'billing-pass-1' });

    // The upgrade modal opens by itself for a free user on home.
    const modal = page.getByRole('dialog', { name: 'Upgrade to Pro' });
    await modal.waitFor();
    expect(await modal.getByText('7-day refund guarantee. Cancel anytime.').isVisible()).toBe(true);
    expect(await banner.getByRole('button', { name: 'Dark theme' }).count()).toBe(0);
    await modal.getByRole('button', { name: 'Not now' }).click();
    await modal.waitFor({ state: 'detached' });

    // The saved transcriptions are restricted; their Pro hint opens the same modal (window event 'open-upgrade').
    await page.goto('/transcricoes');
    await main.getByRole('heading', { name: 'Saved transcriptions are a Pro feature' }).waitFor();
    await main.getByRole('button', { name: 'Upgrade to Pro' }).click();
    await modal.getByRole('button', { name: 'Upgrade now' }).click();

    const currency = page.getByRole('dialog', { name: 'Choose your currency' });
    const next = currency.getByRole('button', { name: 'Continue' });
    expect(await next.isDisabled()).toBe(true);
    await currency.getByRole('radio', { name: /US dollar \(USD\)/ }).check();
    expect(await next.isEnabled()).toBe(true);
    await next.click();

    // The local checkout (Stripe's part) shows what will be charged.
    await page.waitForURL((url) => url.pathname.startsWith('/local/checkout/'));
    await page.getByText('$6.00', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Pay' }).click();

    await page.waitForURL((url) => url.pathname === '/billing/success');
    const sessionId = new URL(page.url()).searchParams.get('session_id')!;
    await main.getByText(sessionId.slice(0, SESSION_ID_SHOWN_CHARS), { exact: true }).waitFor();
    await expect.poll(() => main.getByText('Pro active').isVisible()).toBe(true);
    // Pro in the header and the success toast, within one poll.
    await expect.poll(() => banner.getByText('Pro', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Welcome to Pro!').isVisible()).toBe(true);
    expect(await banner.getByRole('button', { name: 'Upgrade' }).count()).toBe(0);
    expect(await banner.getByRole('button', { name: 'Manage subscription' }).isVisible()).toBe(true);

    // The saved transcriptions unlock: no restricted banner with an upgrade button.
    await main.getByRole('link', { name: 'View saved transcriptions' }).click();
    await page.waitForURL((url) => url.pathname === '/transcricoes');
    await main.getByRole('heading', { level: 1, name: 'Saved transcriptions' }).waitFor();
    expect(await main.getByRole('heading', { name: 'Saved transcriptions are a Pro feature' }).count()).toBe(0);
    expect(await main.getByRole('button', { name: /upgrade/i }).count()).toBe(0);
    expect(await planStatus(page)).toMatchObject({ plan: 'pro', isPro: true });

    // The dark theme, for Pro users: applied at once, kept across a reload (before first paint).
    const toggle = banner.getByRole('button', { name: 'Dark theme' });
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    await toggle.click();
    // React applies the click in its next render: read once it has.
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => isDark(page)).toBe(true);
    await page.reload({ waitUntil: 'domcontentloaded' });
    expect(await isDark(page)).toBe(true);

    // Cancel in the portal, opened in a new tab from the profile's plan card.
    await page.goto('/profile');
    const plan = main.getByRole('region', { name: 'Your plan' });
    const [portal] = await Promise.all([context.waitForEvent('page'), plan.getByRole('button', { name: 'Cancel subscription' }).click()]);
    await portal.waitForURL((url) => url.pathname.startsWith('/local/portal/'));
    await portal.getByRole('button', { name: 'Cancel subscription' }).click();
    // As in Stripe's default portal: Pro stays until the end of the paid period, and the plan card says until when.
    await portal.getByText(/It will not renew\./).waitFor();
    expect(await planStatus(page)).toMatchObject({ plan: 'pro', isPro: true, planRenews: false });
    await page.reload();
    await expect.poll(() => plan.getByText(/^Pro until .+\. It will not renew\.$/).isVisible()).toBe(true);
    // Cancelled: the plan card offers Renew, not Cancel, and Renew renews at once (the simulator answers for Stripe).
    expect(await plan.getByRole('button', { name: 'Cancel subscription' }).count()).toBe(0);
    await plan.getByRole('button', { name: 'Renew subscription' }).click();
    await expect.poll(() => plan.getByText(/^Renews on .+$/).isVisible()).toBe(true);
    await page.getByText('Your subscription will renew').waitFor();
    expect(await plan.getByRole('button', { name: 'Renew subscription' }).count()).toBe(0);
    expect(await plan.getByRole('button', { name: 'Cancel subscription' }).isVisible()).toBe(true);
    expect(await planStatus(page)).toMatchObject({ plan: 'pro', isPro: true, planRenews: true });
    await page.reload();
    await expect.poll(() => plan.getByText(/^Renews on .+$/).isVisible()).toBe(true);
    // The portal sees it renewing; cancelled there again, the simulator plays the period's end (Stripe then deletes the subscription).
    await portal.reload();
    await portal.getByRole('button', { name: 'Cancel subscription' }).click();
    await portal.getByText(/It will not renew\./).waitFor();
    await portal.getByRole('button', { name: 'End the billing period now' }).click();
    await portal.waitForURL((url) => url.pathname === '/profile');
    await portal.close();

    // Back on the first tab, the next poll returns it to free: badge, toggle and dark theme gone.
    expect(await planStatus(page)).toMatchObject({ plan: 'free', isPro: false });
    await context.clock.fastForward(PLAN_POLL_MS);
    await expect.poll(() => banner.getByRole('button', { name: 'Upgrade' }).isVisible()).toBe(true);
    expect(await banner.getByText('Pro', { exact: true }).count()).toBe(0);
    expect(await banner.getByRole('button', { name: 'Dark theme' }).count()).toBe(0);
    expect(await isDark(page)).toBe(false);
    expect(await plan.getByText('Free', { exact: true }).isVisible()).toBe(true);

    await context.close();
  });

  it('a checkout started at 127.0.0.1 comes back to 127.0.0.1, still signed in, cancelled or paid', async () => {
    // The same local server under its other name: to the browser another origin, with storage of its own.
    const origin = new URL(baseUrl());
    origin.hostname = '127.0.0.1';
    const context = await newContext(browser, { baseURL: origin.origin });
    const page = await context.newPage();
    const banner = page.getByRole('banner');
    const main = page.getByRole('main');
    const signedIn = async () => {
      await banner.getByRole('button', { name: 'Account menu' }).waitFor();
      expect(await banner.getByRole('link', { name: 'Log in' }).count()).toBe(0);
    };
    await signUp(page, { name: 'Loopback Tester', email: uniqueEmail('billing-loopback'), password: 'billing-pass-2' });
    await page.getByRole('dialog', { name: 'Upgrade to Pro' }).waitFor();

    await openCheckout(page);
    expect(new URL(page.url()).origin).toBe(origin.origin);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL((url) => url.pathname === '/billing/cancelled');
    expect(new URL(page.url()).origin).toBe(origin.origin);
    await signedIn();

    await banner.getByRole('button', { name: 'Upgrade' }).click();
    await openCheckout(page);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL((url) => url.pathname === '/billing/success');
    expect(new URL(page.url()).origin).toBe(origin.origin);
    await signedIn();
    await expect.poll(() => main.getByText('Pro active').isVisible()).toBe(true);
    await context.close();
  });

  it('a visitor who subscribes on the pricing page is sent to sign up', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/pricing');
    const pro = page.getByRole('main').getByRole('region', { name: /^Pro/ });
    await pro.getByText('$6.00', { exact: true }).waitFor();
    await pro.getByRole('link', { name: 'Subscribe' }).click();
    await page.waitForURL((url) => url.pathname === '/register');
    await context.close();
  });
});
