import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { chromium, type APIRequestContext, type Browser, type BrowserContext, type BrowserContextOptions, type Download } from 'playwright-core';
import { expect, inject } from 'vitest';
import type { UiLanguage } from '../shared/src/constants.ts';
import { sessionTokenOf, setCookiesOf } from '../shared/src/session-cookie.ts';
import { routeUrl } from '@app/shared/routes';
import { setPlan } from '../functions/src/db/users.ts';

/**
 * The run's one Chromium (started by global-setup.ts), connected to from this test file. Closing
 * what this returns closes this file's contexts and disconnects; the browser goes on for the next file.
 */
export function launch(): Promise<Browser> {
  return chromium.connect(inject('browserEndpoint'));
}

export const baseUrl = () => inject('baseUrl');

/** Content-Security-Policy violations reported by the pages of this test file's contexts since the last check (setup.ts). */
export const cspViolations: string[] = [];

/** This file's open browser profiles, each with the last things that went wrong in its pages (setup.ts reports them). */
export const openContexts = new Map<BrowserContext, string[]>();
const TROUBLE_KEPT = 30;

interface Violation {
  directive: string;
  blocked: string;
  source: string;
  line: number;
  sample: string;
}

/** Requests to the measurement hosts of the journeys' build (unreachable: chromium.ts; trackers.e2e.ts answers them). */
export const TRACKER_HOSTS = /^https:\/\/(www\.googletagmanager\.com|www\.google-analytics\.com|www\.clarity\.ms)\//;

/**
 * A browser profile on the local server, reporting every CSP violation of its pages (see above).
 * Its pages register no service worker unless `serviceWorkers: 'allow'` is given: in a new
 * profile, the worker's install fetches the app shell and every file the page loaded a second
 * time, for every profile of the run (about a second of the browser's and the server's CPU per
 * profile). The journeys of the installable app allow it and check what it caches and serves.
 */
export async function newContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: baseUrl(), locale: 'en-US', reducedMotion: 'reduce', serviceWorkers: 'block', ...options });
  context.setDefaultTimeout(10_000);
  const trouble: string[] = [];
  const note = (line: string) => trouble.push(`${new Date().toISOString().slice(11, 23)} ${line}`) > TROUBLE_KEPT && trouble.shift();
  openContexts.set(context, trouble);
  context.on('close', () => openContexts.delete(context));
  // An answer of 400 or more is a console error of its page ("Failed to load resource: ... 404"),
  // with its address: no listener on every response, which Playwright would send each of here.
  context.on('requestfailed', (r) => note(`failed ${r.method()} ${r.url()}: ${r.failure()?.errorText}`));
  context.on('console', (m) => m.type() === 'error' && note(`console error: ${m.text()} (${m.location().url})`));
  context.on('weberror', (e) => note(`page error: ${e.error().message}`));
  // The measurement hosts are never reached: the run's Chromium resolves them to nothing (chromium.ts).
  await context.exposeBinding('__reportCspViolation', ({ page }, v: Violation) => {
    cspViolations.push(`${v.directive} blocked ${v.blocked || 'inline'} on ${page.url()} (${v.source}:${v.line}${v.sample ? ` "${v.sample}"` : ''})`);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __reportCspViolation: (v: Violation) => void }).__reportCspViolation;
      void report({ directive: e.effectiveDirective, blocked: e.blockedURI, source: e.sourceFile, line: e.lineNumber, sample: e.sample });
    });
  });
  return context;
}

let seq = 0;
export const uniqueEmail = (prefix = 'e2e') => `${prefix}-${Date.now().toString(36)}-${seq++}@example.com`;

/** Mail the local server wrote to its outbox for one address, oldest first. */
export async function mailsTo(address: string): Promise<{ to: string; subject: string; text: string }[]> {
  const dir = inject('outboxDir');
  const files = (await readdir(dir)).sort();
  const mails = await Promise.all(files.map(async (f) => JSON.parse(await readFile(join(dir, f), 'utf8'))));
  return mails.filter((m: { to: string }) => m.to === address);
}

export interface Account {
  id: string;
  /** The session token the sign-up set in the session cookie (scripts send it as a Bearer header). */
  token: string;
}

/** The session token a response set in the session cookie (undefined when it set none; '' when it cleared it). */
export const sessionCookieOf = (headers: { name: string; value: string }[]): string | undefined => sessionTokenOf(setCookiesOf(headers));

/** The name and password of every account registerAccount makes. */
export const ACCOUNT_NAME = 'E2E Tester';
export const ACCOUNT_PASSWORD = 'e2e-password-1';

/**
 * Registers a user through the real route (with a unique address from `prefix`, and
 * ACCOUNT_NAME and ACCOUNT_PASSWORD, in the interface `language`, English unless given); `pro` then sets the plan in the store directly (the caller has pointed the
 * store helpers at the e2e table with `useTarget`, as journeys.ts openBrowser does).
 */
export async function registerAccount(
  request: APIRequestContext,
  prefix: string,
  plan: 'free' | 'pro' = 'free',
  language: UiLanguage = 'en',
): Promise<Account & { email: string }> {
  const email = uniqueEmail(prefix);
  const res = await request.post(routeUrl('register'), {
    data: { name: ACCOUNT_NAME, email, password: ACCOUNT_PASSWORD, recaptchaToken: 'test-pass', language },
  });
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { user: { id: string } };
  const token = sessionCookieOf(res.headersArray());
  if (!token) throw new Error('the sign-up set no session cookie');
  if (plan === 'pro') await setPlan(body.user.id, 'pro', new Date(Date.now() + 30 * 86_400_000).toISOString());
  return { id: body.user.id, token, email };
}

/** A downloaded file's bytes (read through the connection: the browser may run in another process). */
async function downloadedBytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A downloaded file's text. */
export async function downloadedText(download: Download): Promise<string> {
  return (await downloadedBytes(download)).toString('utf8');
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * A downloaded Word file's body, unzipped: each paragraph of `word/document.xml` as its text (a
 * line break as "\n") and whether it is right to left (`w:bidi`), with its runs' `w:rtl`.
 */
export async function downloadedDocx(download: Download): Promise<{ text: string; bidi: boolean; rtlRuns: number; runs: number }[]> {
  const document = unzipSync(await downloadedBytes(download))['word/document.xml'];
  if (!document) throw new Error('the download has no word/document.xml');
  const paragraphs = strFromU8(document).match(/<w:p[ >].*?<\/w:p>/g) ?? [];
  return paragraphs.map((p) => {
    const runs = p.match(/<w:r[ >].*?<\/w:r>/g) ?? [];
    const text = runs
      .map((r) => (r.includes('<w:br/>') ? '\n' : '') + [...r.matchAll(/<w:t(?: [^>]*)?>(.*?)<\/w:t>/g)].map((m) => m[1]).join(''))
      .join('')
      .replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => XML_ENTITIES[name]!);
    return { text, bidi: /<w:bidi\/>/.test(p), rtlRuns: runs.filter((r) => r.includes('<w:rtl/>')).length, runs: runs.length };
  });
}
