import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeUrl } from '@app/shared/routes';
import { newContext, registerAccount, uniqueEmail, type Account } from './browser.ts';
import { openBrowser, signInContext } from './journeys.ts';

/**
 * Accessibility: axe-core (all its default rules, WCAG A/AA and best practices) on every
 * route, for a visitor and a signed-in Pro user, in the light and the dark theme of each loaded page; then
 * keyboard-only passes through the login and help pages (Tab, Enter, Space; focus visible).
 */
const require = createRequire(import.meta.url);
/** Evaluated through the DevTools protocol: an injected <script> would break the production CSP (no inline scripts). */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const ROUTES = [
  '/',
  '/login',
  '/register',
  '/forgot-password',
  '/reset-password/x',
  '/profile',
  '/help',
  '/terms',
  '/pricing',
  '/transcricoes',
  '/transcricoes-automaticas',
  '/billing/success',
  '/billing/cancelled',
  '/no-such-page',
];

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

const browser = await openBrowser();
let pro: Account;
beforeAll(async () => {
  const context = await newContext(browser);
  pro = await registerAccount(context.request, 'a11y', 'pro');
  await context.close();
});

/** A profile for one pass: visitor or the Pro user (light theme); no survey pop-up, notices as a new visitor sees them. */
async function profile(who: 'visitor' | 'pro'): Promise<BrowserContext> {
  const context = await newContext(browser, { colorScheme: 'light' });
  await context.addInitScript(
    ({ signedIn, id }) => {
      localStorage.setItem('survey_shown', id);
      if (signedIn) {
        localStorage.setItem('session_user', id);
        localStorage.setItem('theme', 'light');
      }
    },
    { signedIn: who === 'pro', id: pro.id },
  );
  if (who === 'pro') {
    await signInContext(context, pro.token);
    const res = await context.request.patch(routeUrl('getMe'), { data: { theme: 'light' }, headers: { authorization: `Bearer ${pro.token}` } });
    expect(res.status()).toBe(200);
  }
  return context;
}

/**
 * The rules whose results depend on the colors: the only ones the dark theme can change, as it
 * changes colors only (the `dark` class selects the dark palette's custom properties and `dark:`
 * color utilities). The light pass runs every rule; the dark pass runs these.
 */
const COLOR_RULES = ['color-contrast', 'link-in-text-block'];

/** Runs axe on the whole document, in the theme the page shows now: every rule, or only `rules`. */
async function runAxe(page: Page, rules?: string[]): Promise<Violation[]> {
  // Let transitions (colors) finish before contrast is measured, however slow the machine: a theme
  // switch starts them at the next style recalculation (a frame), and they end when they end.
  await page.evaluate(async () => {
    await new Promise(requestAnimationFrame);
    await Promise.all(document.getAnimations().filter((a) => a instanceof CSSTransition).map((a) => a.finished.catch(() => undefined)));
  });
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (rules) => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: Violation[] }> } }).axe;
    const result = await axe.run(document, { iframes: false, resultTypes: ['violations'], ...(rules ? { runOnly: { type: 'rule', values: rules } } : {}) });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  }, rules);
}

/** Audits the page as it is, in the light theme (every rule) and then in the dark one (the color rules). */
async function auditThemes(page: Page, label: string): Promise<string[]> {
  const found: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), theme === 'dark');
    found.push(...describeViolations(`${label} (${theme})`, await runAxe(page, theme === 'dark' ? COLOR_RULES : undefined)));
  }
  return found;
}

/**
 * Counts the page's requests still waiting for an answer (its chunks, its data), from now on:
 * a page has settled when its heading shows and none is left.
 */
function pendingRequests(page: Page): () => number {
  const pending = new Set<object>();
  page.on('request', (r) => pending.add(r));
  page.on('requestfinished', (r) => pending.delete(r));
  page.on('requestfailed', (r) => pending.delete(r));
  return () => pending.size;
}

/**
 * Opens `path` and waits for it to settle (its chunk, its data: every request answered and the
 * answers rendered), then audits it in the light theme and in the dark one (the class the Pro
 * theme toggle sets, forced for visitors, who have no toggle). The first path of a pass loads the
 * page; the next ones are reached as the app's own links reach them (the history API and the
 * router's popstate), so the app and axe load once a pass: each route renders from scratch either
 * way. A path that lands on one audited already in this pass (a redirect) is not audited twice.
 */
async function audit(page: Page, pending: () => number, path: string, audited: Set<string>): Promise<string[]> {
  if (audited.size === 0) await page.goto(path);
  else {
    await page.evaluate((to) => {
      // The headings the page shows now: the route is rendered once a heading that is not one of these shows.
      (window as unknown as { __before: Map<Element, string> }).__before = new Map(
        [...document.querySelectorAll('main h1, main [role="heading"][aria-level="1"]')].map((h) => [h, h.textContent ?? '']),
      );
      history.pushState(null, '', to);
      dispatchEvent(new PopStateEvent('popstate', { state: null }));
    }, path);
  }
  await page.waitForFunction(() => {
    const before = (window as unknown as { __before?: Map<Element, string> }).__before ?? new Map<Element, string>();
    return [...document.querySelectorAll('main h1, main [role="heading"][aria-level="1"]')].some((h) => before.get(h) !== (h.textContent ?? ''));
  });
  await expect.poll(pending).toBe(0);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await expect.poll(pending).toBe(0);
  const landed = await page.evaluate(() => location.pathname);
  if (landed !== path && audited.has(landed)) return [];
  audited.add(landed);
  return auditThemes(page, path);
}

const describeViolations = (path: string, violations: Violation[]) =>
  violations.map((v) => `${path} [${v.impact}] ${v.id}: ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`);

describe('axe-core', () => {
  for (const who of ['visitor', 'pro'] as const) {
    it(`finds no violations on any route, light and dark (${who})`, { timeout: 240_000 }, async () => {
      const context = await profile(who);
      const page = await context.newPage();
      const pending = pendingRequests(page);
      const found: string[] = [];
      const audited = new Set<string>();
      for (const path of ROUTES) found.push(...(await audit(page, pending, path, audited)));
      await context.close();
      expect(found, found.join('\n')).toEqual([]);
    });
  }
});

describe('axe-core on a live captions page', () => {
  it('finds no violations on /live/<code> of a real share, with captions shown, light and dark (visitor)', { timeout: 60_000 }, async () => {
    // The Pro user records (an automatic transcription with text) and shares it.
    const headers = { authorization: `Bearer ${pro.token}` };
    const setup = await newContext(browser);
    const { sessionId } = (await (await setup.request.get(routeUrl('autosaveSessionId'), { headers })).json()) as { sessionId: string };
    const text = 'Good morning, and welcome to the talk.';
    const saved = await setup.request.post(routeUrl('autosaveSave'), {
      headers,
      data: { sessionId, offset: 0, text, segments: [], duration: 3, language: 'en-US' },
    });
    expect(saved.status()).toBe(200);
    const { code } = (await (await setup.request.post(routeUrl('startLiveShare'), { headers, data: { sessionId, includeEarlier: true } })).json()) as { code: string };
    await setup.close();

    const context = await newContext(browser, { colorScheme: 'light' });
    const page = await context.newPage();
    // The page polls while open, so the network never goes idle: wait for the captions instead.
    await page.goto(`/live/${code}`);
    await page.getByRole('region', { name: 'Captions' }).getByText(text).waitFor();
    const found = await auditThemes(page, '/live/<code>');
    await context.close();
    expect(found, found.join('\n')).toEqual([]);
  });
});

/** What has focus, and whether it shows it (outline or ring). */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { name: '', tag: 'body', visible: false };
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    const ring = style.boxShadow !== 'none' && style.boxShadow !== '';
    const labels = (el as HTMLInputElement).labels;
    const label = el.getAttribute('aria-label') ?? (labels?.[0]?.textContent || el.textContent || '');
    return { name: label.trim().replace(/\s+/g, ' '), tag: el.tagName.toLowerCase(), visible: outline || ring };
  });

/** Presses Tab until `match` has focus; every stop on the way must show its focus. */
async function tabTo(page: Page, match: (f: { name: string; tag: string }) => boolean, max = 40) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    expect(f.visible, `focus not visible on <${f.tag}> "${f.name}"`).toBe(true);
    if (match(f)) return f;
  }
  throw new Error('focus never reached the target');
}

describe('keyboard only', () => {
  it('logs in with Tab and Enter, every focus visible', async () => {
    const context = await newContext(browser);
    const email = uniqueEmail('keys');
    await context.request.post(routeUrl('register'), {
      data: { name: 'Keyboard Kim', email, password: 'keys-password-1', recaptchaToken: 'test-pass' },
    });
    await context.addInitScript(() => localStorage.setItem('cookies_accepted', 'true'));
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();

    // The skip link comes first and moves to the content.
    await tabTo(page, (f) => f.name === 'Skip to content', 1);
    await page.keyboard.press('Enter');
    await tabTo(page, (f) => f.tag === 'input' && f.name === 'Email');
    await page.keyboard.type(email);
    await tabTo(page, (f) => f.tag === 'input' && f.name === 'Password');
    await page.keyboard.type('keys-password-1');
    // The show-password toggle works with Space.
    await tabTo(page, (f) => f.name === 'Show password', 1);
    await page.keyboard.press(' ');
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('text');
    await tabTo(page, (f) => f.tag === 'button' && f.name === 'Log in');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByText('Welcome back, Keyboard Kim!').waitFor();
    await context.close();
  });

  it('uses the help page with Tab, Enter and Space: topics, FAQ, contact form', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/help');
    await page.getByRole('heading', { level: 1, name: 'Help center' }).waitFor();

    // A quick card jumps to the FAQ.
    await tabTo(page, (f) => f.tag === 'a' && f.name.startsWith('FAQ'));
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#faq');

    // Questions open with Enter or Space, one at a time.
    await tabTo(page, (f) => f.name === 'Which browsers can I use?');
    await page.keyboard.press('Enter');
    const browsers = page.getByRole('button', { name: 'Which browsers can I use?' });
    expect(await browsers.getAttribute('aria-expanded')).toBe('true');
    await tabTo(page, (f) => f.name === 'How do I allow the microphone?');
    await page.keyboard.press(' ');
    expect(await page.getByRole('button', { name: 'How do I allow the microphone?' }).getAttribute('aria-expanded')).toBe('true');
    expect(await browsers.getAttribute('aria-expanded')).toBe('false');

    // The contact form, typed and sent from the keyboard.
    await tabTo(page, (f) => f.tag === 'input' && f.name === 'Name', 60);
    await page.keyboard.type('Keyboard Kim');
    await tabTo(page, (f) => f.tag === 'input' && f.name === 'Email', 1);
    await page.keyboard.type('kim@example.com');
    await tabTo(page, (f) => f.tag === 'input' && f.name === 'Subject', 1);
    await page.keyboard.type('Keyboard question');
    await tabTo(page, (f) => f.tag === 'textarea', 1);
    await page.keyboard.type('Can I use the app with the keyboard only?');
    await tabTo(page, (f) => f.name === 'Send message', 1);
    await page.keyboard.press('Enter');
    await page.getByText('Message sent').waitFor();
    await context.close();
  });
});
