import type { Browser, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, newContext } from './browser.ts';

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

/** Opens `path` with the shell script held back until the page has been parsed for a while. */
async function requestsBeforeShellRuns(path: string): Promise<string[]> {
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
  // Parsing index.html and fetching what it names takes a few milliseconds; none of the app's own code runs before the shell.
  await expect.poll(() => requested.some((p) => SHELL_CHUNK.test(p))).toBe(true);
  await page.waitForTimeout(300);
  const before = [...requested];
  releaseShell();
  await loaded;
  await page.getByRole('heading', { level: 1 }).waitFor();
  await context.close();
  return before;
}

describe('first load', () => {
  it('on /, the home page chunk is requested before the app code runs', async () => {
    const before = await requestsBeforeShellRuns('/');
    expect(before.filter((p) => HOME_CHUNK.test(p))).toHaveLength(1);
  });

  it('another path does not download the home page chunk', async () => {
    const before = await requestsBeforeShellRuns('/login');
    expect(before.some((p) => HOME_CHUNK.test(p))).toBe(false);
  });
});
