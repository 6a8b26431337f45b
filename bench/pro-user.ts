import type { Browser, BrowserContext } from 'playwright-core';
import { routeUrl } from '@app/shared/routes';
import { sessionTokenOf, setCookiesOf } from '@app/shared/session-cookie';
import { setPlan } from '../functions/src/db/users.ts';
import { installSpeech } from '../e2e/fake-speech.ts';

export interface ProUser {
  /** A Chromium profile signed in as the user: the sign-up's answer set the session cookie in it. */
  context: BrowserContext;
  userId: string;
  /** The session token, for the benchmark's own API calls (a Bearer header). */
  token: string;
}

/**
 * A Pro account signed up through the API, in a Chromium profile of its own on `url`: the
 * session cookie in the profile, the cookie notice and the survey answered, the scripted
 * recognizer installed (e2e/fake-speech.ts). Pro: no visitor time limit or upgrade prompt in the
 * way of a measurement. DynamoDB's endpoint must be set in the environment (setPlan writes there).
 */
export async function proUser(browser: Browser, url: string, name: string, viewport = { width: 1280, height: 800 }): Promise<ProUser> {
  const context = await browser.newContext({ baseURL: url, locale: 'en-US', viewport });
  const res = await context.request.post(routeUrl('register'), {
    data: { name, email: `${name.toLowerCase().replace(/\W+/g, '-')}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`, password: 'bench-password-1', recaptchaToken: 'test-pass' },
  });
  if (!res.ok()) throw new Error(`register failed: ${res.status()} ${await res.text()}`);
  const { user } = (await res.json()) as { user: { id: string } };
  const token = sessionTokenOf(setCookiesOf(res.headersArray()));
  if (!token) throw new Error('the sign-up set no session cookie');
  await setPlan(user.id, 'pro', new Date(Date.now() + 86_400_000).toISOString());
  await context.addInitScript(
    ({ id }) => {
      localStorage.setItem('cookies_accepted', 'true');
      localStorage.setItem('session_user', id);
      localStorage.setItem('survey_shown', id);
    },
    { id: user.id },
  );
  // tsx keeps function names through a `__name` helper that page.evaluate's functions then call.
  await context.addInitScript({ content: 'window.__name = (target) => target;' });
  await installSpeech(context);
  return { context, userId: user.id, token };
}
