import { describe, expect, it } from 'vitest';
import { mailsTo, newContext, uniqueEmail } from './browser.ts';
import { dismissUpgradeModal, openBrowser, signUp } from './journeys.ts';

/**
 * Email verification in real Chromium against the local server: sign-up mails a link and a
 * banner shows until it is opened; the banner sends the link again; the link's page confirms the
 * address (its token leaves the address bar) and the banner goes.
 */
const browser = await openBrowser();

/** The path and fragment of the newest verification link mailed to `email`. */
async function latestLink(email: string): Promise<string> {
  const mail = (await mailsTo(email)).filter((m) => m.subject === 'Confirm your email address').at(-1);
  const link = /https?:\/\/\S+\/verify-email#[A-Za-z0-9_-]{43}/.exec(mail?.text ?? '')?.[0];
  if (!link) throw new Error(`no verification link for ${email}`);
  const url = new URL(link);
  return `${url.pathname}${url.hash}`;
}

describe('email verification', () => {
  it('a banner until the mailed link is opened; the banner sends it again', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const email = uniqueEmail('verify');
    await signUp(page, { name: 'Verify Tester', email, password: 'verify-pass-1' });
    await dismissUpgradeModal(page);
    const banner = page.getByRole('region', { name: `Confirm your email address: we sent a link to ${email}.` });
    await banner.waitFor();
    await expect.poll(async () => (await mailsTo(email)).map((m) => m.subject)).toEqual(['Confirm your email address']);

    await banner.getByRole('button', { name: 'Send the link again' }).click();
    await banner.getByRole('status').getByText(`A new link is on its way to ${email}.`).waitFor();
    await expect.poll(async () => (await mailsTo(email)).length).toBe(2);

    await page.goto(await latestLink(email));
    await page.getByRole('main').getByText('Your email address is confirmed.').waitFor();
    expect(new URL(page.url()).hash).toBe('');
    await expect.poll(() => banner.count()).toBe(0);
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('region', { name: 'Live transcription' }).waitFor();
    expect(await banner.count()).toBe(0);
    await context.close();
  });
});
