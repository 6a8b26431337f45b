import { request, type APIRequestContext, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';
import { afterAll, expect, inject } from 'vitest';
import { useTarget } from '../functions/src/ops/ops.ts';
import { SESSION_COOKIE } from '@app/shared/constants';
import { baseUrl, launch, newContext, type Account } from './browser.ts';
import { installSpeech, type FakeResult } from './fake-speech.ts';

/**
 * Steps the browser journeys share: the file's browser and API client, a device's storage as a
 * person leaves it, the sign-up and login forms, the live transcription card and the scripted
 * recognizer.
 */

/**
 * Chromium for the calling test file, closed after its tests, with the store helpers (`setPlan`,
 * `listVisits`...) pointed at the e2e table. Called at the top of the file:
 * `const browser = await openBrowser();`.
 */
export async function openBrowser(): Promise<Browser> {
  useTarget({ table: inject('tableName'), endpoint: inject('dynamoEndpoint') });
  const browser = await launch();
  afterAll(() => browser.close());
  return browser;
}

/**
 * The API as a script calls it, with no browser storage (registering accounts, seeding data,
 * reading what the server holds), disposed after the file's tests: `const api = await openApi();`.
 */
export async function openApi(): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL: baseUrl() });
  afterAll(() => api.dispose());
  return api;
}

export interface Device {
  /** Signed in as this account, its survey already shown. */
  account?: Account;
  /** The cookie notice already accepted (the default). */
  cookiesAccepted?: boolean;
  /**
   * Today's visit already recorded on this device (the default): pages measure but send no visit
   * record, so the run's many profiles, all on one address, leave the server's per-address
   * allowance of visit records to the journey that counts them (site.e2e.ts).
   */
  visitRecorded?: boolean;
  /**
   * The page learns whose session it is on the first page load of each tab only, so a later logout
   * or sign-in as someone else sticks across reloads (the session cookie itself is set once, with the context).
   */
  signInOnce?: boolean;
  /** The scripted recognizer (fake-speech.ts) in place of the browser's. */
  speech?: boolean;
  /** With `speech`: the recognizer has the draft's on-device members, its language packs as given. */
  onDevice?: Record<string, 'available' | 'downloadable' | 'unavailable'>;
}

/** A browser profile (newContext) whose storage holds what `device` says before any page loads. */
export async function deviceContext(browser: Browser, device: Device, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await newContext(browser, options);
  await context.addInitScript(
    ({ account, cookiesAccepted, signInOnce, visitRecorded }) => {
      if (cookiesAccepted) localStorage.setItem('cookies_accepted', 'true');
      if (visitRecorded) {
        const now = new Date();
        const pad = (n: number) => String(n).padStart(2, '0');
        localStorage.setItem('analytics_last_visit', `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`);
      }
      if (!account) return;
      if (signInOnce) {
        if (sessionStorage.getItem('seeded')) return;
        sessionStorage.setItem('seeded', '1');
      }
      localStorage.setItem('session_user', account.id);
      localStorage.setItem('survey_shown', account.id);
    },
    {
      account: device.account ? { id: device.account.id } : null,
      cookiesAccepted: device.cookiesAccepted ?? true,
      signInOnce: device.signInOnce ?? false,
      visitRecorded: device.visitRecorded ?? true,
    },
  );
  if (device.account) await signInContext(context, device.account.token);
  if (device.speech) await installSpeech(context, { onDevice: device.onDevice });
  return context;
}

/** The session token in the profile's session cookie, undefined without one. */
export async function sessionToken(context: BrowserContext): Promise<string | undefined> {
  return (await context.cookies(baseUrl())).find((c) => c.name === SESSION_COOKIE)?.value;
}

/**
 * Puts a session token in the profile's session cookie, as a sign-in's answer does (HttpOnly,
 * Secure: Chromium keeps Secure cookies of http://localhost, SameSite=Strict, host-only).
 */
export async function signInContext(context: BrowserContext, token: string): Promise<void> {
  const { hostname } = new URL(baseUrl());
  await context.addCookies([{ name: SESSION_COOKIE, value: token, domain: hostname, path: '/', secure: true, httpOnly: true, sameSite: 'Strict' }]);
}

/** Creates an account on /register (terms accepted) and waits for home. */
export async function signUp(page: Page, user: { name: string; email: string; password: string }): Promise<void> {
  await page.goto('/register');
  const main = page.getByRole('main');
  await main.getByLabel('Name').fill(user.name);
  await main.getByLabel('Email').fill(user.email);
  await main.getByLabel('Password', { exact: true }).fill(user.password);
  await main.getByRole('checkbox', { name: /I accept the terms/ }).check();
  await main.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

/** Fills the login form of the page it is on and sends it. */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  const main = page.getByRole('main');
  await main.getByLabel('Email').fill(email);
  await main.getByLabel('Password', { exact: true }).fill(password);
  await main.getByRole('button', { name: 'Log in' }).click();
}

/** The element lies wholly inside the viewport: nothing to scroll to see it. */
export async function inViewport(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const { width, height } = page.viewportSize()!;
  return box !== null && box.y >= 0 && box.x >= 0 && box.y + box.height <= height && box.x + box.width <= width;
}

/**
 * What a person sees at the element's centre is the element itself: on the screen, and covered by
 * nothing (a sticky header, a notice pinned to the bottom). Hit-tests that point, as a tap would.
 */
export const uncovered = (locator: Locator) =>
  locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return hit !== null && el.contains(hit);
  });

/** The whole visible text of an element, white space folded. */
export const visibleText = (locator: Locator) => locator.evaluate((el) => (el as HTMLElement).innerText.replace(/\s+/g, ' ').trim());

/** The live transcription card and the parts tests read. */
export function card(page: Page) {
  const root = page.getByRole('region', { name: 'Live transcription' });
  const status = root.getByRole('status').first();
  const transcript = root.getByRole('region', { name: 'Transcript' });
  return {
    root,
    status,
    transcript,
    button: (name: string) => root.getByRole('button', { name, exact: true }),
    language: (name: string) => root.getByRole('group', { name: 'Recognition language' }).getByRole('button', { name }),
    /** The offer to restore a transcript left on the device. */
    restorePrompt: root.getByText('Unsaved transcript found'),
    /** Resolves once the card has searched the device for a transcript to restore (and shows its offer, if any). */
    recoveryChecked: () => root.and(page.locator('[data-recovery="checked"]')).waitFor(),
    transcriptText: () => visibleText(transcript),
    statusIs: (label: string) => expect.poll(() => status.textContent()).toBe(label),
  };
}

/** The scripted recognizer of a page (window.__speech, installed by deviceContext's `speech`). */
export function speech(page: Page) {
  return {
    interim: (text: string) => page.evaluate((t) => window.__speech.interim(t), text),
    final: (text: string) => page.evaluate((t) => window.__speech.final(t), text),
    emit: (resultIndex: number, items: FakeResult[]) => page.evaluate(([i, r]) => window.__speech.emit(i, r), [resultIndex, items] as const),
    error: (code: string) => page.evaluate((c) => window.__speech.error(c), code),
    end: () => page.evaluate(() => window.__speech.end()),
    starts: () => page.evaluate(() => window.__speech.starts),
    active: () => page.evaluate(() => window.__speech.active),
    log: () => page.evaluate(() => window.__speech.log.map((e) => e.type)),
    /**
     * The last recognizer that ended and the first start() after it: the milliseconds between
     * the two, and whether start() came from inside its end handler (the same task).
     */
    lastRestart: () =>
      page.evaluate(() => {
        const log = window.__speech.log;
        const endAt = log.findLastIndex((e) => e.type === 'end');
        const end = log[endAt];
        const start = log.slice(endAt + 1).find((e) => e.type === 'start');
        if (!end || !start) return null;
        return { ended: end.id, gapMs: start.at - end.at, sameTask: start.duringEndOf === end.id };
      }),
    /**
     * Waits until `n` recognizers have started and one is listening; else fails with what the
     * page showed (the card's status, the recognizers' events, the notifications).
     */
    waitStarted: async (n = 1) => {
      try {
        await page.waitForFunction((count) => window.__speech.starts >= count && window.__speech.active !== null, n);
      } catch (err) {
        const status = await card(page).status.textContent({ timeout: 2000 }).catch(() => null);
        const shown = await page
          .evaluate(() => ({
            recognizers: window.__speech.log.map((e) => `${e.type} #${e.id}`).join(', ') || 'none',
            notices: [...document.querySelectorAll('[data-sonner-toast], [role=alert]')].map((e) => e.textContent).join(' | ') || 'none',
          }))
          .then((page) => ({ status, ...page }))
          .catch((e: Error) => ({ status, unreadable: e.message }));
        throw new Error(`${n} recognizer(s) did not start: ${JSON.stringify(shown)}`, { cause: err });
      }
    },
  };
}

/**
 * The texts of the segments in the device's IndexedDB copy of the transcript (crash recovery,
 * written in small batches). Opens the database only once the app has made it: opening it first
 * would create it without its stores.
 */
export function storedSegmentTexts(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    if (!(await indexedDB.databases()).some((d) => d.name === 'live-transcribe')) return [];
    return new Promise<string[]>((resolve, reject) => {
      const open = indexedDB.open('live-transcribe');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains('recovery-segments')) {
          db.close();
          return resolve([]);
        }
        const all = db.transaction('recovery-segments').objectStore('recovery-segments').getAll();
        all.onerror = () => reject(all.error);
        all.onsuccess = () => {
          db.close();
          resolve((all.result as { text: string }[]).map((segment) => segment.text));
        };
      };
    });
  });
}

/**
 * How many times `text` occurs in the device's storage: every localStorage value and every
 * record of the app's IndexedDB database (the device copy of transcripts, the upload queue).
 */
export function deviceCopies(page: Page, text: string): Promise<number> {
  return page.evaluate(async (needle) => {
    const count = (haystack: string) => haystack.split(needle).length - 1;
    let found = 0;
    for (let i = 0; i < localStorage.length; i++) found += count(localStorage.getItem(localStorage.key(i)!) ?? '');
    if (!(await indexedDB.databases()).some((d) => d.name === 'live-transcribe')) return found;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('live-transcribe');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => resolve(open.result);
    });
    for (const name of Array.from(db.objectStoreNames)) {
      const records = await new Promise<unknown[]>((resolve, reject) => {
        const all = db.transaction(name).objectStore(name).getAll();
        all.onerror = () => reject(all.error);
        all.onsuccess = () => resolve(all.result);
      });
      for (const record of records) found += count(JSON.stringify(record));
    }
    db.close();
    return found;
  }, text);
}

/** Presses Start on the card and waits until the first recognizer is listening. */
export async function startRecording(page: Page): Promise<void> {
  await card(page).button('Start').click();
  await speech(page).waitStarted(1);
}

/** Closes the upgrade modal a free user's first visit to home opens by itself. */
export async function dismissUpgradeModal(page: Page): Promise<void> {
  const modal = page.getByRole('dialog', { name: 'Upgrade to Pro' });
  await modal.getByRole('button', { name: 'Not now' }).click();
  await modal.waitFor({ state: 'detached' });
}

/**
 * From the open upgrade modal to the local checkout page (Stripe's part): Upgrade now, US dollars,
 * Continue. The caller then presses Pay or Cancel there.
 */
export async function openCheckout(page: Page): Promise<void> {
  await page.getByRole('dialog', { name: 'Upgrade to Pro' }).getByRole('button', { name: 'Upgrade now' }).click();
  const currency = page.getByRole('dialog', { name: 'Choose your currency' });
  await currency.getByRole('radio', { name: /US dollar \(USD\)/ }).check();
  await currency.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/local/checkout/'));
}

/** Logs out from the account menu and waits for the header's login link. */
export async function logOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect.poll(() => page.getByRole('banner').getByRole('link', { name: 'Log in' }).isVisible()).toBe(true);
}
