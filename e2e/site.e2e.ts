import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { routeUrl } from '@app/shared/routes';
import { listVisits, visitDay } from '../functions/src/db/analytics.ts';
import { SURVEY_DELAY_MS } from '../web/src/features/survey/lib/survey.ts';
import { E2E_SURVEY_URL } from './web-build.ts';
import { ACCOUNT_NAME, mailsTo, newContext, registerAccount, type Account } from './browser.ts';
import { openBrowser, signInContext } from './journeys.ts';

/**
 * The rest of the site in Chromium against the real local server: contact form to the outbox,
 * cookie consent and daily analytics, the survey (embedded from E2E_SURVEY_URL by the journeys'
 * build) and the installable app.
 */
const SUPPORT_EMAIL = 'support@localhost';

const browser = await openBrowser();

/** A browser profile signed in as `account` (its session cookie, and whose it is in device storage, as after a login). */
async function signedIn(context: BrowserContext, account: Account) {
  await signInContext(context, account.token);
  await context.addInitScript((id) => window.localStorage.setItem('session_user', id), account.id);
}

describe('contact form', () => {
  it('delivers a visitor message to the support outbox and clears the form', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/help');
    const form = page.getByRole('region', { name: 'Contact us' });
    const subject = `Export question ${Date.now()}`;
    await form.getByLabel('Name').fill('Visitor Vera');
    await form.getByLabel('Email').fill('vera@example.com');
    await form.getByLabel('Subject').fill(subject);
    await form.getByLabel('Message').fill('How do I export a transcript as SRT?\nThanks!');
    await form.getByRole('button', { name: 'Send message' }).click();
    await page.getByText('Message sent').waitFor();
    for (const label of ['Name', 'Email', 'Subject', 'Message']) expect(await form.getByLabel(label).inputValue()).toBe('');

    await expect.poll(async () => (await mailsTo(SUPPORT_EMAIL)).filter((m) => m.subject.includes(subject)).length).toBe(1);
    const mail = (await mailsTo(SUPPORT_EMAIL)).find((m) => m.subject.includes(subject)) as { text: string; replyTo?: string };
    expect(mail.replyTo).toBe('vera@example.com');
    expect(mail.text).toContain('Visitor Vera');
    expect(mail.text).toContain('How do I export a transcript as SRT?\nThanks!');
    await context.close();
  });

  it('prefills and locks the name and email of a signed-in user', async () => {
    const context = await newContext(browser);
    const account = await registerAccount(context.request, 'contact');
    const { email } = account;
    await signedIn(context, account);
    const page = await context.newPage();
    await page.goto('/help');
    const form = page.getByRole('region', { name: 'Contact us' });
    await expect.poll(() => form.getByLabel('Email').inputValue()).toBe(email);
    expect(await form.getByLabel('Name').inputValue()).toBe(ACCOUNT_NAME);
    expect(await form.getByLabel('Name').getAttribute('readonly')).not.toBeNull();
    expect(await form.getByLabel('Email').getAttribute('readonly')).not.toBeNull();
    const subject = `Signed-in question ${Date.now()}`;
    await form.getByLabel('Subject').fill(subject);
    await form.getByLabel('Message').fill('Where is my history?');
    await form.getByRole('button', { name: 'Send message' }).click();
    await page.getByText('Message sent').waitFor();
    await expect.poll(async () => (await mailsTo(SUPPORT_EMAIL)).filter((m) => m.subject.includes(subject)).length).toBe(1);
    const mail = (await mailsTo(SUPPORT_EMAIL)).find((m) => m.subject.includes(subject)) as { replyTo?: string };
    expect(mail.replyTo).toBe(email);
    await context.close();
  });
});

describe('cookie notice and analytics', () => {
  it('records one visit on acceptance, none again that day, and one the next day', async () => {
    const day = visitDay(new Date().toISOString());
    // Other journeys record visits of their own at the same time: this profile's have a screen size of its own.
    const screen = { width: 1201, height: 803 };
    const ours = async () => (await listVisits(day)).filter((v) => v.screen === `${screen.width}x${screen.height}`);
    expect(await ours()).toEqual([]);
    const context = await newContext(browser, { screen });
    const page = await context.newPage();
    let posts = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === routeUrl('analytics')) posts++;
    });

    await page.goto('/');
    const notice = page.getByRole('region', { name: 'Cookie notice' });
    await notice.waitFor();
    await page.goto('/login');
    await notice.waitFor();
    expect(posts).toBe(0); // nothing is measured before consent

    await notice.getByRole('button', { name: 'Accept' }).click();
    await notice.waitFor({ state: 'detached' });
    await expect.poll(() => posts).toBe(1);
    await expect.poll(async () => (await ours()).length).toBe(1);
    expect((await ours())[0]).toMatchObject({ cookies: true, deviceType: 'desktop' });

    // Same day: new page views, no new record, no notice. Each page decides once its analytics
    // code has run (loaded after the page is idle, it sends at once or not at all).
    for (const path of ['/', '/register', '/help']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await analyticsRan(page);
    }
    expect(await notice.count()).toBe(0);
    expect(posts).toBe(1);
    expect(await ours()).toHaveLength(1);

    // The next day (the stored day is older): one more record.
    await page.evaluate(() => localStorage.setItem('analytics_last_visit', '2000-01-01'));
    await page.reload();
    await expect.poll(() => posts).toBe(2);
    await expect.poll(async () => (await ours()).length).toBe(2);
    await context.close();
  });
});

const ANALYTICS_CHUNK = /\/assets\/analytics-[\w-]+\.js$/;

/**
 * The page's analytics code has loaded and run: the app loads it once the page is idle and it
 * sends at once or not at all; importing it here resolves after the app's own import has.
 */
async function analyticsRan(page: Page): Promise<void> {
  const loaded = () =>
    page.evaluate((source) => performance.getEntriesByType('resource').find((e) => new RegExp(source).test(e.name))?.name ?? null, ANALYTICS_CHUNK.source);
  await expect.poll(loaded).not.toBeNull();
  await page.evaluate(`import(${JSON.stringify(await loaded())}).then(() => undefined)`);
}

describe('survey', () => {
  it('shows a signed-in user the survey once; the floating button opens it again', async () => {
    const context = await newContext(browser);
    await context.clock.install();
    const account = await registerAccount(context.request, 'survey');
    const { token } = account;
    await signedIn(context, account);
    const page = await context.newPage();
    await page.goto('/profile');
    const open = page.getByRole('button', { name: 'Feedback' });
    await open.waitFor().catch(() => {
      throw new Error(`No survey button: build the web app with VITE_SURVEY_URL=${E2E_SURVEY_URL}`);
    });
    const dialog = page.getByRole('dialog', { name: 'Help us improve Live Transcribe' });
    expect(await dialog.count()).toBe(0);

    await context.clock.fastForward(SURVEY_DELAY_MS + 1_000);
    await dialog.waitFor();
    expect(await dialog.locator('iframe').getAttribute('title')).toBe('Feedback survey form');
    expect(await dialog.locator('iframe').getAttribute('src')).toBe(E2E_SURVEY_URL);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    const me = async () => {
      const res = await context.request.get(routeUrl('getMe'), { headers: { authorization: `Bearer ${token}` } });
      return (await res.json()) as { surveyShown: boolean };
    };
    await expect.poll(async () => (await me()).surveyShown).toBe(true);

    // Not again: neither after a reload nor on a new device of the same user.
    await page.reload();
    await open.waitFor();
    await context.clock.fastForward(SURVEY_DELAY_MS * 2);
    await page.waitForTimeout(500);
    expect(await dialog.count()).toBe(0);

    const other = await newContext(browser);
    await other.clock.install();
    await signedIn(other, account);
    const page2 = await other.newPage();
    await page2.goto('/help');
    await page2.getByRole('button', { name: 'Feedback' }).waitFor();
    await other.clock.fastForward(SURVEY_DELAY_MS * 2);
    await page2.waitForTimeout(500);
    expect(await page2.getByRole('dialog').count()).toBe(0);
    await other.close();

    // The floating button opens it any time.
    await open.click();
    await dialog.waitFor();
    await context.close();
  });
});

describe('installable app', () => {
  it('has a web manifest with icons, and opens offline from the cached shell with an offline notice', async () => {
    const context = await newContext(browser, { serviceWorkers: 'allow' });
    const page = await context.newPage();
    await page.goto('/');
    const manifestUrl = await page.locator('link[rel="manifest"]').getAttribute('href');
    const manifest = (await (await context.request.get(manifestUrl!)).json()) as {
      name: string; short_name: string; start_url: string; display: string; icons: { src: string; sizes: string; purpose: string }[];
    };
    expect(manifest).toMatchObject({ name: 'Live Transcribe', start_url: '/', display: 'standalone' });
    for (const [size, purpose] of [['192x192', 'any'], ['512x512', 'any'], ['512x512', 'maskable']]) {
      const icon = manifest.icons.find((i) => i.sizes === size && i.purpose === purpose)!;
      const res = await context.request.get(icon.src);
      expect(res.headers()['content-type']).toBe('image/png');
    }

    // The service worker takes control and caches the shell and the pages visited.
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 10_000 }).toBe(true);
    await page.goto('/help');
    await page.getByRole('heading', { level: 1, name: 'Help center' }).waitFor();
    await expect
      .poll(() => page.evaluate(async () => (await (await caches.open('shell-v1')).match('/index.html')) !== undefined))
      .toBe(true);

    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Help center' }).waitFor();
    await page.getByText('You are offline.').waitFor();
    // The API is never served from the cache.
    expect(await page.evaluate((url) => fetch(url).then(() => 'answered', () => 'failed'), routeUrl('maintenanceMode'))).toBe('failed');

    await context.setOffline(false);
    await expect.poll(() => page.getByText('You are offline.').count()).toBe(0);
    await context.close();
  });
});
