import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, newContext } from './browser.ts';
import { UNUSED_FEATURES } from './chromium.ts';

/**
 * The built index.html on the local server (with its production Content-Security-Policy): on `/`
 * the home page's chunk is asked for alongside the first-load files, before any of them has run;
 * other paths do not download it.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const HOME_CHUNK = /\/assets\/home-page-[\w-]+\.js$/;
const SHELL_CHUNK = /\/assets\/shell-[\w-]+\.js$/;

/**
 * Opens `path` with the shell script held back (none of the app's own code runs before it) until
 * `whileHeld` has checked the page; then lets it load and returns every path the page requested.
 */
async function loadWithShellHeld(path: string, whileHeld: (requested: string[], page: Page) => Promise<void>): Promise<string[]> {
  const context = await newContext(browser);
  const page = await context.newPage();
  const requested: string[] = [];
  let releaseShell = () => undefined as void;
  const shellHeld = new Promise<void>((resolve) => (releaseShell = resolve));
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  await page.route(SHELL_CHUNK, async (route: Route) => {
    await shellHeld;
    await route.continue();
  });
  const loaded = page.goto(path);
  try {
    await expect.poll(() => requested.some((p) => SHELL_CHUNK.test(p))).toBe(true);
    await whileHeld(requested, page);
  } finally {
    releaseShell();
  }
  await loaded;
  await page.getByRole('heading', { level: 1 }).waitFor();
  await context.close();
  return requested;
}

/** The parser is past index.html's head (its stylesheet, the last element there, is in the document). */
const headParsed = (page: Page) => expect.poll(() => page.evaluate(() => document.querySelector('link[rel="stylesheet"]') !== null)).toBe(true);

describe('first load', () => {
  it('on /, the home page chunk is requested before the app code runs', async () => {
    await loadWithShellHeld('/', async (requested) => {
      await expect.poll(() => requested.filter((p) => HOME_CHUNK.test(p))).toHaveLength(1);
    });
  });

  it("the scripts / runs as it starts carry V8's compile hint as their first line; a later page's do not", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    const scripts = await page.evaluate(() => performance.getEntriesByType('resource').map((r) => new URL(r.name).pathname).filter((p) => p.endsWith('.js')));
    const firstLine = async (path: string) => (await (await context.request.get(path)).text()).split('\n')[0];
    for (const chunk of [SHELL_CHUNK, HOME_CHUNK]) {
      const path = scripts.find((p) => chunk.test(p));
      expect(path, `${chunk} loaded`).toBeDefined();
      expect(await firstLine(path!)).toBe('//# allFunctionsCalledOnLoad');
    }
    await page.getByRole('link', { name: 'Help' }).first().click();
    await page.getByRole('heading', { level: 1, name: /help/i }).waitFor();
    const later = await page.evaluate((before) => performance.getEntriesByType('resource').map((r) => new URL(r.name).pathname).filter((p) => p.endsWith('.js') && !before.includes(p)), scripts);
    expect(later.length).toBeGreaterThan(0);
    for (const path of later) expect(await firstLine(path)).not.toBe('//# allFunctionsCalledOnLoad');
    await context.close();
  });

  it('another path does not download the home page chunk', async () => {
    const requested = await loadWithShellHeld('/login', async (_, page) => {
      await headParsed(page);
      expect(await page.evaluate(() => document.querySelectorAll('link[rel="modulepreload"]').length)).toBe(0);
    });
    expect(requested.some((p) => HOME_CHUNK.test(p))).toBe(false);
  });
});

describe('home page layout', () => {
  it('shows the on-device panel in the first render and moves nothing while it loads: no layout shift', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/');
    const card = page.getByRole('region', { name: 'Live transcription' });
    // The availability answer (checking, then whatever this browser says) is in, with any install action.
    await card.locator('[data-availability]:not([data-availability="checking"])').waitFor();
    await page.waitForLoadState('networkidle');
    const shifts = await page.evaluate(
      () =>
        new Promise<number[]>((resolve) => {
          new PerformanceObserver((list) => resolve(list.getEntries().map((e) => (e as unknown as { value: number }).value))).observe({ type: 'layout-shift', buffered: true });
          setTimeout(() => resolve([]), 500);
        }),
    );
    expect(shifts).toEqual([]);
    await context.close();
  });
});

describe("the journeys' Chromium", () => {
  it('opens only the page under test in a new context, none of the address bar popups, with the unused features off and Playwright’s disabled features kept', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByRole('heading', { level: 1 }).waitFor();
    const cdp = await browser.newBrowserCDPSession();
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { type: string; url: string }[] };
    await cdp.detach();
    expect(targetInfos.filter((t) => t.type === 'browser_ui').map((t) => t.url)).toEqual([]);

    await page.goto('chrome://version');
    const commandLine = await page.locator('#command_line').innerText();
    // Playwright's list comes first; Chromium reads only the last one, which must keep it whole.
    const lists = [...commandLine.matchAll(/--disable-features=(\S+)/g)].map((m) => m[1]!.split(','));
    expect(lists.length).toBeGreaterThan(0);
    expect(lists.at(-1)).toEqual(expect.arrayContaining([...lists.flat(), ...UNUSED_FEATURES]));
    await context.close();
  });
});
