import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_PASSWORD, registerAccount, type Account } from './browser.ts';
import { deviceContext, dismissUpgradeModal, inViewport, openApi, openBrowser, submitLogin } from './journeys.ts';

/**
 * What a new user meets on a 390x844 phone: Start, the timer and the transcript on the first
 * screen (and the transcript taking the screen while recording), the upgrade modal never over a
 * running transcription, pricing reachable from the menu, the footer and the upgrade modal, a
 * cancelled checkout going back to where it started, and login returning to the page it came from.
 */
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;

const browser = await openBrowser();
const api = await openApi();

const phoneContext = (options: { account?: Account; locale?: string } = {}) =>
  deviceContext(browser, { account: options.account, speech: true }, { ...PHONE, locale: options.locale ?? 'en-US' });

/** Waits until the page's recognizer is listening (the fake has started). */
const listening = (page: Page) => expect.poll(() => page.evaluate(() => window.__speech.active !== null)).toBe(true);

const finals = (page: Page, count: number) =>
  page.evaluate((n) => {
    for (let i = 0; i < n; i++) window.__speech.final(`Sentence ${i} of a long talk about live captions.`);
  }, count);

describe('on a 390x844 phone', () => {
  it.each([
    ['en-US', 'Start', 'Stop', 'Live transcription'],
    ['pt-BR', 'Iniciar', 'Parar', 'Transcrição ao vivo'],
    ['es-ES', 'Iniciar', 'Detener', 'Transcripción en vivo'],
  ])('%s: Start, the timer and the top of the transcript fit the first screen; recording, the transcript takes it', async (locale, start, stop, title) => {
    const context = await phoneContext({ locale });
    const page = await context.newPage();
    await page.goto('/');
    const card = page.getByRole('region', { name: title });
    const startButton = card.getByRole('button', { name: start, exact: true });
    const transcript = card.getByTestId('transcript');
    await startButton.waitFor();
    expect(await inViewport(page, startButton)).toBe(true);
    expect(await inViewport(page, card.getByText('00:00'))).toBe(true);
    const top = (await transcript.boundingBox())!;
    expect(top.y + 48).toBeLessThanOrEqual(844);
    // The compact language selector keeps the Pro hint.
    expect(await card.getByRole('combobox').isVisible()).toBe(true);
    // The eight buttons make way for the select on phones (not in the accessibility tree either).
    expect(await card.getByRole('group', { name: /./ }).count()).toBe(0);

    await startButton.click();
    const stopButton = card.getByRole('button', { name: stop, exact: true });
    await stopButton.waitFor();
    await listening(page);
    await finals(page, 1);
    await expect.poll(() => inViewport(page, stopButton)).toBe(true);
    // The whole transcript box, its newest line at the bottom included, is on screen and taller than before.
    await expect.poll(() => inViewport(page, transcript)).toBe(true);
    expect((await transcript.boundingBox())!.height).toBeGreaterThan(top.height * 1.5);
    await context.close();
  });

  it('a free user: the upgrade modal opens after load, never over a running transcription', async () => {
    const account = await registerAccount(api, 'phone-modal');
    const context = await phoneContext({ account });
    const page = await context.newPage();
    await page.goto('/');
    await dismissUpgradeModal(page);
    const card = page.getByRole('region', { name: 'Live transcription' });
    await card.getByRole('button', { name: 'Start', exact: true }).click();
    await listening(page);
    await finals(page, 3);
    await expect.poll(() => card.getByTestId('transcript').textContent()).toContain('Sentence 2');
    await page.waitForTimeout(1000);
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await inViewport(page, card.getByRole('button', { name: 'Stop', exact: true }))).toBe(true);
    await context.close();
  });

  it('a free user who presses Start before the billing code has loaded never gets the modal', async () => {
    const account = await registerAccount(api, 'phone-race');
    // The profile runs no service worker (newContext): a request a worker answered would never
    // reach page.route, and the billing code would come through it, unheld.
    const context = await phoneContext({ account });
    const page = await context.newPage();
    // Hold back the code that opens the modal by itself until listening has begun.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(/\/assets\/billing-session-[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/');
    const card = page.getByRole('region', { name: 'Live transcription' });
    await card.getByRole('button', { name: 'Start', exact: true }).click();
    await listening(page);
    release();
    await expect.poll(() => page.evaluate(() => performance.getEntriesByType('resource').some((e) => /billing-session/.test(e.name)))).toBe(true);
    await page.waitForTimeout(500);
    expect(await page.getByRole('dialog').allTextContents()).toEqual([]);
    await context.close();
  });

  it('a visitor finds pricing in the menu, the footer and the upgrade modal', async () => {
    const context = await phoneContext();
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('banner').getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'Mobile menu' }).getByRole('link', { name: 'Pricing' }).click();
    await page.waitForURL((url) => url.pathname === '/pricing');

    await page.goto('/help');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Pricing' }).click();
    await page.waitForURL((url) => url.pathname === '/pricing');

    await page.goto('/');
    // A Pro-only language in the compact selector asks for the upgrade, like the buttons do.
    await page.getByRole('region', { name: 'Live transcription' }).getByRole('combobox', { name: 'Recognition language' }).selectOption('es-ES');
    const modal = page.getByRole('dialog', { name: 'Upgrade to Pro' });
    await modal.getByRole('link', { name: 'See plans and pricing' }).click();
    await page.waitForURL((url) => url.pathname === '/pricing');
    expect(await page.getByRole('dialog').count()).toBe(0);
    await context.close();
  });

  it('back from a cancelled checkout returns to where it started, and a new checkout can start at once', async () => {
    const account = await registerAccount(api, 'phone-cancel');
    const context = await phoneContext({ account });
    const page = await context.newPage();
    await page.goto('/profile');
    const checkout = async (currency: RegExp) => {
      await page.getByRole('region', { name: 'Your plan' }).getByRole('button', { name: 'Upgrade to Pro' }).click();
      await page.getByRole('dialog', { name: 'Upgrade to Pro' }).getByRole('button', { name: 'Upgrade now' }).click();
      const dialog = page.getByRole('dialog', { name: 'Choose your currency' });
      await dialog.getByRole('radio', { name: currency }).check();
      await dialog.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/local/checkout/'));
    };
    await checkout(/USD/);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL((url) => url.pathname === '/billing/cancelled');
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/profile');
    // The abandoned checkout was closed on the way back: another currency starts straight away.
    await checkout(/BRL/);
    expect(await page.getByText('R$', { exact: false }).first().isVisible()).toBe(true);
    await context.close();
  });

  it.each([
    ['/profile', 'Log in'],
    ['/transcricoes-automaticas', 'Log in'],
  ])('logging in from the prompt on %s returns there', async (path, button) => {
    const account = await registerAccount(api, 'phone-return');
    const context = await phoneContext();
    const page = await context.newPage();
    await page.goto(path);
    await page.getByRole('main').getByRole('link', { name: button }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await submitLogin(page, account.email, ACCOUNT_PASSWORD);
    await page.waitForURL((url) => url.pathname === path);
    await context.close();
  });
});
