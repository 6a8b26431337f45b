import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '@app/shared/constants';
import { routeNamed } from '@app/shared/routes';
import { registerAccount, type Account } from './browser.ts';
import { card, deviceContext, deviceCopies, logOut, openApi, openBrowser, signInContext, speech, startRecording, storedSegmentTexts } from './journeys.ts';

/**
 * Device data belongs to a user, in Chromium's real storage (IndexedDB and localStorage):
 * a logout sends the user's unsent autosave text and then leaves nothing of their transcript
 * on the device; a session that ends by itself keeps the copy for that same user only.
 */
const browser = await openBrowser();
const api = await openApi();

/** A context signed in as `account` once (a later logout or token change sticks across reloads). */
const openContext = (account: Account) => deviceContext(browser, { account, signInOnce: true, speech: true });

/** Transcript data in device storage: the autosave queue, the recovery tails and marker, and the owner of the IndexedDB copy the marker names. */
function deviceData(page: Page) {
  return page.evaluate(async () => {
    const marker = localStorage.getItem('transcribe.recovery.active');
    const owner = await new Promise<string | null | undefined>((resolve, reject) => {
      if (marker === null) return resolve(undefined);
      const open = indexedDB.open('live-transcribe');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        const get = db.transaction('recovery-meta').objectStore('recovery-meta').get(marker);
        get.onerror = () => reject(get.error);
        get.onsuccess = () => {
          db.close();
          resolve((get.result as { userId?: string | null } | undefined)?.userId);
        };
      };
    });
    return {
      queue: localStorage.getItem('autosave_queue'),
      tail: localStorage.getItem('transcribe.recovery'),
      marker,
      owner,
    };
  });
}

async function record(page: Page, words: string) {
  await startRecording(page);
  await speech(page).final(words);
  await expect.poll(() => card(page).transcriptText()).toBe(words);
  await expect.poll(() => storedSegmentTexts(page)).toContain(words);
}

/** Signs the device in as `account` (null: a visitor) and reloads; resolves once the card has looked for a transcript. */
async function reloadAs(page: Page, account: Account | null) {
  if (account) await signInContext(page.context(), account.token);
  else await page.context().clearCookies({ name: SESSION_COOKIE });
  await page.evaluate((id) => (id ? localStorage.setItem('session_user', id) : localStorage.removeItem('session_user')), account?.id ?? null);
  await page.reload();
  await card(page).recoveryChecked();
}

describe('device data belongs to its user', () => {
  it('logout sends the unsent text first, then leaves nothing of the transcript on the device; the next user is offered nothing', async () => {
    const a = await registerAccount(api, 'device-a', 'pro');
    const b = await registerAccount(api, 'device-b', 'pro');
    const context = await openContext(a);
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('response', (res) => {
      const route = routeNamed(res.request().method(), new URL(res.url()).pathname);
      if (route?.startsWith('autosave') || route === 'logout') requests.push(`${route} ${res.status()}`);
    });
    await page.goto('/');
    await record(page, 'words only A may read.');
    expect(await deviceData(page)).toMatchObject({ owner: a.id, marker: expect.any(String) });
    // The autosave queue is written to device storage at most once a second; it reads the text from the device copy.
    await expect.poll(async () => (await deviceData(page)).queue).toContain(a.id);
    expect(await deviceCopies(page, 'words only A may read.')).toBe(1);

    await logOut(page);
    // Sent in A's session before it ended on the server.
    await expect.poll(() => requests.at(-1)).toBe('logout 200');
    const saved = requests.indexOf('autosaveSave 200');
    expect(saved).toBeGreaterThanOrEqual(0);
    expect(requests.indexOf('autosaveComplete 200')).toBeGreaterThan(saved);
    expect(await card(page).transcriptText()).not.toContain('words only A may read.');
    await expect.poll(() => deviceData(page)).toEqual({ queue: null, tail: null, marker: null, owner: undefined });
    expect(await deviceCopies(page, 'words only A may read.')).toBe(0);

    await reloadAs(page, b);
    expect(await card(page).restorePrompt.count()).toBe(0);
    await context.close();
  });

  it('a session that ends by itself keeps the copy for its user only: not for a visitor, not for another user', async () => {
    const a = await registerAccount(api, 'device-a2', 'pro');
    const b = await registerAccount(api, 'device-b2', 'pro');
    const context = await openContext(a);
    const page = await context.newPage();
    await page.goto('/');
    await record(page, 'kept for A alone.');

    await reloadAs(page, null); // the session is gone (refused, or logged out in another tab)
    expect(await card(page).restorePrompt.count()).toBe(0);
    await reloadAs(page, b);
    expect(await card(page).restorePrompt.count()).toBe(0);
    expect(await deviceData(page)).toMatchObject({ owner: a.id });

    await reloadAs(page, a);
    await card(page).restorePrompt.waitFor();
    await card(page).button('Restore').click();
    await expect.poll(() => card(page).transcriptText()).toBe('kept for A alone.');
    await context.close();
  });
});
