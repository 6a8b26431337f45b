import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { useTarget } from '../functions/src/ops/ops.ts';
import { launch, newContext, registerAccount, type Account } from './browser.ts';
import { installSpeech } from './fake-speech.ts';

/**
 * Device data belongs to a user, in Chromium's real storage (IndexedDB and localStorage):
 * a logout sends the user's unsent autosave text and then leaves nothing of their transcript
 * on the device; a session that ends by itself keeps the copy for that same user only.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
  useTarget({ table: inject('tableName'), endpoint: inject('dynamoEndpoint') });
});
afterAll(async () => {
  await browser?.close();
});

/** A context signed in as `account` once (a later logout or token change sticks across reloads). */
async function openContext(account: Account): Promise<BrowserContext> {
  const context = await newContext(browser);
  await context.addInitScript((acc) => {
    localStorage.setItem('cookies_accepted', 'true');
    if (sessionStorage.getItem('seeded')) return;
    sessionStorage.setItem('seeded', '1');
    localStorage.setItem('token', acc.token);
    localStorage.setItem('survey_shown', acc.id);
  }, account);
  await installSpeech(context);
  return context;
}

/** Transcript data in device storage: the autosave queue, the recovery tail and marker, and the IndexedDB copy's owner. */
function deviceData(page: Page) {
  return page.evaluate(async () => {
    const owner = await new Promise<string | null | undefined>((resolve, reject) => {
      const open = indexedDB.open('live-transcribe');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        const get = db.transaction('recovery-meta').objectStore('recovery-meta').get('current');
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
      marker: localStorage.getItem('transcribe.recovery.active'),
      owner,
    };
  });
}

function card(page: Page) {
  const root = page.getByRole('region', { name: 'Live transcription' });
  return {
    root,
    button: (name: string) => root.getByRole('button', { name, exact: true }),
    text: () => root.getByRole('region', { name: 'Transcript' }).evaluate((el) => (el as HTMLElement).innerText.replace(/\s+/g, ' ').trim()),
    prompt: root.getByText('Unsaved transcript found'),
  };
}

async function record(page: Page, words: string) {
  const c = card(page);
  await c.button('Start').click();
  await page.waitForFunction(() => window.__speech.starts >= 1 && window.__speech.active !== null);
  await page.evaluate((t) => window.__speech.final(t), words);
  await expect.poll(() => c.text()).toBe(words);
  await page.waitForTimeout(1100); // written to IndexedDB in small batches
}

/** Signs the device in as `token` (null: a visitor) and reloads; resolves once the card has looked for a transcript. */
async function reloadAs(page: Page, token: string | null) {
  await page.evaluate((t) => (t ? localStorage.setItem('token', t) : localStorage.removeItem('token')), token);
  await page.reload();
  await card(page).button('Start').waitFor();
  await page.waitForTimeout(800);
}

describe('device data belongs to its user', () => {
  it('logout sends the unsent text first, then leaves nothing of the transcript on the device; the next user is offered nothing', async () => {
    const setup = await newContext(browser);
    const a = await registerAccount(setup.request, 'device-a', 'pro');
    const b = await registerAccount(setup.request, 'device-b', 'pro');
    const context = await openContext(a);
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('response', (res) => {
      const path = new URL(res.url()).pathname;
      if (path.startsWith('/api/transcriptions-autosave/') || path === '/api/auth/logout') requests.push(`${res.request().method()} ${path} ${res.status()}`);
    });
    await page.goto('/');
    await record(page, 'words only A may read.');
    expect(await deviceData(page)).toMatchObject({ owner: a.id, marker: '1' });
    expect((await deviceData(page)).queue).toContain('words only A may read.');

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect.poll(() => page.getByRole('banner').getByRole('link', { name: 'Log in' }).isVisible()).toBe(true);
    // Sent with A's token before the session ended on the server.
    await expect.poll(() => requests.at(-1)).toBe('POST /api/auth/logout 200');
    const saved = requests.indexOf('POST /api/transcriptions-autosave/save 200');
    expect(saved).toBeGreaterThanOrEqual(0);
    expect(requests.indexOf('POST /api/transcriptions-autosave/complete 200')).toBeGreaterThan(saved);
    expect(await card(page).text()).not.toContain('words only A may read.');
    await expect.poll(() => deviceData(page)).toEqual({ queue: null, tail: null, marker: null, owner: undefined });

    await reloadAs(page, b.token);
    expect(await card(page).prompt.count()).toBe(0);
    await context.close();
    await setup.close();
  });

  it('a session that ends by itself keeps the copy for its user only: not for a visitor, not for another user', async () => {
    const setup = await newContext(browser);
    const a = await registerAccount(setup.request, 'device-a2', 'pro');
    const b = await registerAccount(setup.request, 'device-b2', 'pro');
    const context = await openContext(a);
    const page = await context.newPage();
    await page.goto('/');
    await record(page, 'kept for A alone.');

    await reloadAs(page, null); // the token is gone (refused, or logged out in another tab)
    expect(await card(page).prompt.count()).toBe(0);
    await reloadAs(page, b.token);
    expect(await card(page).prompt.count()).toBe(0);
    expect(await deviceData(page)).toMatchObject({ owner: a.id });

    await reloadAs(page, a.token);
    await card(page).prompt.waitFor();
    await card(page).button('Restore').click();
    await expect.poll(() => card(page).text()).toBe('kept for A alone.');
    await context.close();
    await setup.close();
  });
});
