import { execFileSync } from 'node:child_process';
import { chromium, type BrowserServer } from 'playwright-core';
import { E2E_ANALYTICS_ORIGINS } from './web-build.ts';

/** Debian's Chromium (or CHROMIUM_PATH, e.g. an older version to test against), never a downloaded browser. */
export function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim();
}

/**
 * The measurement hosts the journeys' build is configured with (web-build.ts) resolve to nothing:
 * their requests fail at once, as they would offline, in every browser context (a journey may
 * answer them itself with a route: trackers.e2e.ts). Done by the browser, not by a route in each
 * context: a context with a route sends every request of its pages through Playwright and loses
 * its HTTP cache.
 */
const UNREACHABLE_HOSTS = `--host-resolver-rules=${E2E_ANALYTICS_ORIGINS.map((origin) => `MAP ${new URL(origin).host} ~NOTFOUND`).join(', ')}`;

/** Headless, offline (no Google services, no measurement hosts), with a fake microphone the page may use without asking. */
export const FLAGS = [
  UNREACHABLE_HOSTS,
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
];

/**
 * Chromium features that cost CPU in every new browser context and that no journey uses:
 * - the address bar's popups, WebUI pages (chrome://omnibox-popup.top-chrome) that headless
 *   Chromium preloads in a renderer of their own for each context: as much CPU as the page under
 *   test (about 1.7 s a context on a 2-core machine);
 * - the spare renderer started ahead of the next navigation, which a new context (a profile of
 *   its own) never uses: about 0.3 s a context.
 */
export const UNUSED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup', 'SpareRendererForSitePerProcess'];

const DISABLE_FEATURES = '--disable-features=';

/**
 * Starts the run's Chromium with FLAGS and UNUSED_FEATURES turned off. Chromium reads only the
 * last `--disable-features`, and Playwright passes its own list (features that break automation),
 * so the list Playwright gives this Chromium is read from a first launch and extended.
 */
export async function launchChromiumServer(): Promise<BrowserServer> {
  const options = { executablePath: chromiumPath(), headless: true };
  const probe = await chromium.launchServer({ ...options, args: FLAGS });
  const spawned = probe.process().spawnargs;
  await probe.close();
  const playwrights = spawned.findLast((a) => a.startsWith(DISABLE_FEATURES))?.slice(DISABLE_FEATURES.length).split(',').filter(Boolean) ?? [];
  return chromium.launchServer({ ...options, args: [...FLAGS, DISABLE_FEATURES + [...playwrights, ...UNUSED_FEATURES].join(',')] });
}
