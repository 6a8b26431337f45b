import type { Page } from 'playwright-core';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { routeUrl } from '@app/shared/routes';
import { ACCOUNT_PASSWORD, mailsTo, registerAccount } from './browser.ts';
import { card, deviceContext, deviceCopies, openApi, openBrowser, openCheckout, sessionToken, speech, startRecording, storedSegmentTexts } from './journeys.ts';

/**
 * Your data, on the profile, in real Chromium against the local server and its checkout
 * simulator: a Pro user (paid through the simulator) with a saved transcription, an automatic one
 * and a device copy downloads one ZIP that holds what was saved, then deletes the account with
 * their password: the subscription shows cancelled in the simulator's portal, this browser keeps
 * nothing of them, the account no longer signs in, and a confirmation mail arrives.
 */
const browser = await openBrowser();
const api = await openApi();

/** A route called from the page, as the app calls it: the browser sends the session cookie (a body: POST). */
const callAs = <T>(page: Page, url: string, body?: unknown) =>
  page.evaluate(
    async ([to, data]) => {
      const res = await fetch(to, {
        method: data === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json' },
        body: data === undefined ? undefined : JSON.stringify(data),
      });
      return { status: res.status, body: (await res.json()) as T };
    },
    [url, body] as const,
  );

describe('your data', () => {
  it('downloads everything in one file, then deletes the account: Stripe cancelled, the browser cleared, a mail sent', async () => {
    const account = await registerAccount(api, 'your-data');
    const context = await deviceContext(browser, { account, signInOnce: true, speech: true });
    const page = await context.newPage();

    // Pro through the local checkout (the upgrade modal opens by itself on home for a free user).
    await page.goto('/');
    await openCheckout(page);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL((url) => url.pathname === '/billing/success');
    await expect.poll(() => page.getByRole('main').getByText('Pro active').isVisible()).toBe(true);

    // A saved transcription, and a spoken one: autosaved on the server and copied on the device.
    const text = 'Palavras salvas: ação, coração e 你好.';
    const saved = await callAs<{ _id: string }>(page, routeUrl('saveTranscription'), { title: 'Reunião', duration: 3, fullTranscript: text, segments: [{ text, startMs: 0, endMs: 3000 }] });
    expect(saved.status).toBe(200);
    await page.goto('/');
    await startRecording(page);
    const spoken = 'words this browser must forget.';
    await speech(page).final(spoken);
    await expect.poll(() => card(page).transcriptText()).toBe(spoken);
    await expect.poll(() => storedSegmentTexts(page)).toContain(spoken);
    await card(page).button('Stop').click();
    expect(await deviceCopies(page, spoken)).toBeGreaterThan(0);
    await expect
      .poll(async () => (await callAs<{ transcriptions: { preview: string }[] }>(page, routeUrl('listAutomaticTranscriptions'))).body.transcriptions.map((t) => t.preview))
      .toContain(spoken);

    // Download my data: one ZIP with the profile and both transcriptions, as saved.
    await page.goto('/profile');
    const section = page.getByRole('region', { name: 'Your data' });
    const [download] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: 'Download my data' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^live-transcribe-data-\d{4}-\d{2}-\d{2}\.zip$/);
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    const files = unzipSync(Buffer.concat(chunks));
    const accountFile = JSON.parse(strFromU8(files['account.json']!)) as { profile: { email: string }; billing: { plan: string; subscriptions: unknown[] } };
    expect(accountFile.profile.email).toBe(account.email);
    expect(accountFile.billing.plan).toBe('pro');
    expect(accountFile.billing.subscriptions).toHaveLength(1);
    const savedTxt = Object.keys(files).find((name) => name.startsWith('saved-transcriptions/') && name.endsWith(`${saved.body._id}.txt`))!;
    expect(strFromU8(files[savedTxt]!)).toBe(text);
    const savedJson = JSON.parse(strFromU8(files[savedTxt.replace(/\.txt$/, '.json')]!)) as { title: string; segments: unknown[] };
    expect(savedJson).toMatchObject({ title: 'Reunião', segments: [{ text, startMs: 0, endMs: 3000 }] });
    // The spoken words reach the server (autosave) and the file.
    const automatic = Object.keys(files).filter((name) => name.startsWith('automatic-transcriptions/') && name.endsWith('.txt'));
    expect(automatic.map((name) => strFromU8(files[name]!))).toContain(spoken);
    await section.getByRole('status').getByText(/^Your data is ready/).waitFor();

    // Delete my account: a wrong password first, then the right one.
    await section.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByLabel('Password', { exact: true }).fill('not-my-password-1');
    await dialog.getByRole('button', { name: 'Delete my account for good' }).click();
    await dialog.getByText('The current password is not correct.').waitFor();
    await dialog.getByLabel('Password', { exact: true }).fill(ACCOUNT_PASSWORD);
    await dialog.getByRole('button', { name: 'Delete my account for good' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByText('Your account was deleted').waitFor();
    await expect.poll(() => page.getByRole('banner').getByRole('link', { name: 'Log in' }).isVisible()).toBe(true);

    // Nothing of the user on this browser.
    expect(await sessionToken(context)).toBeUndefined();
    expect(await page.evaluate(() => localStorage.getItem('session_user'))).toBeNull();
    expect(await deviceCopies(page, spoken)).toBe(0);
    expect(await deviceCopies(page, account.id)).toBe(0);

    // The subscription shows cancelled in the simulator's portal.
    await page.goto(`/local/portal/cus_local_${account.id}`);
    await page.getByText(/Live Transcribe Pro: cancelled on .+\. It has ended and will not renew\./).waitFor();

    // The account no longer signs in; the confirmation arrived.
    const login = await api.post(routeUrl('login'), { data: { email: account.email, password: ACCOUNT_PASSWORD } });
    expect(login.status()).toBe(401);
    await expect.poll(async () => (await mailsTo(account.email)).map((m) => m.subject)).toContain('Your account was deleted');
    await context.close();
  });
});
