import { afterEach, beforeEach, vi } from 'vitest';
import { resetEnv } from '../src/lib/env.ts';
import { resetSecrets } from '../src/lib/secrets.ts';

/** The site the provider's answers name (APP_URL's host while the file's tests run). */
export const CAPTCHA_SITE = 'app.example.org';

/**
 * For the calling file's tests: the bot check with a secret (RECAPTCHA_SECRET) on the site
 * https://app.example.org, and the provider (siteverify, through the global fetch) answering what each
 * test gives `provider`; both are put back after each test. `provider` returns what was asked.
 */
export function useCaptchaProvider(): (answer: Record<string, unknown>) => URLSearchParams[] {
  const saved = { RECAPTCHA_SECRET: process.env.RECAPTCHA_SECRET, APP_URL: process.env.APP_URL };
  const reset = () => {
    resetEnv();
    resetSecrets();
  };
  beforeEach(() => {
    process.env.RECAPTCHA_SECRET = 'test-secret';
    process.env.APP_URL = `https://${CAPTCHA_SITE}`;
    reset();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    reset();
  });
  return (answer) => {
    const asked: URLSearchParams[] = [];
    const realFetch = globalThis.fetch;
    vi.stubGlobal('fetch', async (url: string, init: { body: URLSearchParams }) => {
      // Other services (the breached-password check's local fake) answer as before.
      if (!String(url).includes('siteverify')) return realFetch(url, init as RequestInit);
      asked.push(init.body);
      return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
    });
    return asked;
  };
}
