import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LIVE_VIEWERS_POLL_MS } from '../shared/src/constants.ts';
import { isApiPath, routeNamed, routes, routeUrl } from '@app/shared/routes';
import { DEFAULT_CORRECTIONS } from '@app/shared/constants';
import { baseUrl, registerAccount } from './browser.ts';
import { card, deviceContext, openApi, openBrowser, speech, startRecording } from './journeys.ts';

/**
 * Live caption sharing end to end: a Pro speaker shares a running session; viewers with no
 * account follow the link in their own browser profiles and get every final result in order,
 * once, across a dropped connection; the speaker sees them counted; stopping ends every view.
 */
const browser = await openBrowser();
const api = await openApi();

interface Viewer {
  context: BrowserContext;
  page: Page;
  /** /api requests the page made, and the status of each answer. */
  answers: { method: string; path: string; status: number }[];
}

async function openViewer(link: string): Promise<Viewer> {
  const context = await deviceContext(browser, {});
  const page = await context.newPage();
  const answers: Viewer['answers'] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (isApiPath(url.pathname)) answers.push({ method: response.request().method(), path: url.pathname, status: response.status() });
  });
  await page.goto(link);
  return { context, page, answers };
}

/** The auth level of the route a request went to (from the route table). */
function authOf(method: string, path: string): string | undefined {
  const name = routeNamed(method, path);
  return name && routes[name].auth;
}

/** The transcript a viewer shows (the captions region's text, without its status lines). */
const captionText = (page: Page) => page.getByRole('region', { name: 'Captions' }).locator('p:last-child').textContent();

describe('live caption sharing', () => {
  it('viewers without an account follow a Pro speaker in order, once, across a dropped connection; the speaker sees the count and stops', async () => {
    const pro = await registerAccount(api, 'live-speaker', 'pro');
    // The pauses here are the browsers' own timing: no paragraphs by silence, so the text is exact.
    const corrections = { ...DEFAULT_CORRECTIONS, paragraphSilence: null };
    expect((await api.put(routeUrl('putCorrections'), { headers: { authorization: `Bearer ${pro.token}` }, data: corrections })).status()).toBe(200);
    const speakerContext = await deviceContext(browser, { account: pro, speech: true });
    await speakerContext.clock.install();
    const page = await speakerContext.newPage();
    const c = card(page);
    const s = speech(page);
    await page.goto('/');
    await startRecording(page);
    await s.final('good morning everyone');

    // What was said before sharing is shown only when the speaker asks for it.
    await c.root.getByRole('checkbox', { name: 'Also show what was said before sharing' }).check();
    await c.root.getByRole('button', { name: 'Share live', exact: true }).click();
    const panel = c.root.getByRole('region', { name: 'Live captions link' });
    const link = await panel.getByRole('textbox', { name: 'Live link' }).inputValue();
    expect(link).toMatch(new RegExp(`^${baseUrl()}/live/[A-Za-z0-9_-]{12}$`));
    await panel.getByRole('img', { name: 'QR code of the live link' }).waitFor();

    const viewers = await Promise.all([0, 1, 2].map(() => openViewer(link)));
    let said = 'good morning everyone';
    const allShow = (text: string, among = viewers) =>
      expect.poll(() => Promise.all(among.map((v) => captionText(v.page)))).toEqual(among.map(() => text));
    await allShow(said);
    expect(await viewers[0]!.page.title()).toBe('Live captions');

    await s.final('thank you for coming');
    said += ' thank you for coming';
    await allShow(said);

    // One phone drops off the network while the speaker goes on.
    const [offline, ...online] = viewers as [Viewer, Viewer, Viewer];
    await offline.context.setOffline(true);
    for (const words of ['this part is said', 'while one phone is offline']) {
      await s.final(words);
      said += ` ${words}`;
    }
    await allShow(said, online);
    await offline.page.getByText('Connection lost. Reconnecting…').waitFor();
    expect(await captionText(offline.page)).toBe('good morning everyone thank you for coming');
    await offline.context.setOffline(false);
    await allShow(said);
    await s.final('and it caught up');
    said += ' and it caught up';
    await allShow(said);
    await offline.page.getByText('Connection lost. Reconnecting…').waitFor({ state: 'detached' });

    // The speaker's count: distinct viewers this minute and the last.
    await expect
      .poll(async () => {
        await page.clock.fastForward(LIVE_VIEWERS_POLL_MS);
        return panel.getByRole('status').first().textContent();
      })
      .toBe('3 people following');

    await panel.getByRole('button', { name: 'Stop sharing', exact: true }).click();
    await panel.waitFor({ state: 'detached' });
    await c.root.getByRole('button', { name: 'Share live', exact: true }).waitFor();
    for (const v of viewers) {
      await v.page.getByText('The speaker stopped sharing.').waitFor();
      expect(await captionText(v.page)).toBe(said);
    }
    // Viewers, signed out, only called public routes (no auth-only fetch, nothing refused or failed).
    for (const v of viewers) {
      expect(v.answers.filter((a) => authOf(a.method, a.path) !== 'none' || a.status === 401 || a.status >= 500)).toEqual([]);
      expect(v.answers.some((a) => a.method === 'POST' && a.path.endsWith('/viewers'))).toBe(true);
    }
    await Promise.all([speakerContext, ...viewers.map((v) => v.context)].map((ctx) => ctx.close()));
  }, 90_000);

  it('a wrong or expired link says so', async () => {
    const viewer = await openViewer('/live/AAAAAAAAAAAA');
    await viewer.page.getByRole('heading', { name: 'Live captions not found' }).waitFor();
    await viewer.context.close();
  });
});
