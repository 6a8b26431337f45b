import type { BrowserContext, Locator, Page } from 'playwright-core';
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

/** A caption element's font (the first of its stack), text colour and grid row (2: the lower third). */
const looks = (locator: Locator) =>
  locator.evaluate((el) => {
    const css = getComputedStyle(el);
    return { font: css.fontFamily.split(',')[0], color: css.color, row: css.gridRowStart };
  });

/** The transcript a viewer shows (the captions region's text, without its status lines). */
const captionText = (page: Page) => page.getByRole('region', { name: 'Captions' }).locator('p:last-child').textContent();

describe('live caption sharing', () => {
  it('viewers without an account follow a Pro speaker in order, once, across a dropped connection; the speaker sees the count and stops', async () => {
    const pro = await registerAccount(api, 'live-speaker', 'pro');
    // The pauses here are the browsers' own timing: no paragraphs by silence, so the text is exact.
    const corrections = { ...DEFAULT_CORRECTIONS, paragraphSilence: null };
    expect((await api.put(routeUrl('putCorrections'), { headers: { authorization: `Bearer ${pro.token}` }, data: corrections })).status()).toBe(200);
    const speakerContext = await deviceContext(browser, { account: pro, speech: true }, { permissions: ['clipboard-read', 'clipboard-write'] });
    await speakerContext.clock.install();
    const page = await speakerContext.newPage();
    const c = card(page);
    const s = speech(page);
    await page.goto('/');
    await startRecording(page);
    await s.final('good morning everyone');

    // The caption style, chosen in caption mode's editor: previewed, contrast checked, shown in
    // caption mode with the self-hosted font, kept on the account, and carried by the share.
    await page.keyboard.press('c');
    const captionMode = page.getByRole('dialog', { name: 'Caption mode' });
    await captionMode.getByRole('button', { name: 'Caption style' }).click();
    const editor = page.getByRole('dialog', { name: 'Caption style' });
    await editor.getByRole('combobox', { name: 'Font' }).selectOption('OpenDyslexic');
    await editor.getByRole('combobox', { name: 'Position' }).selectOption('Lower third');
    await editor.getByRole('button', { name: 'Black on white' }).click();
    await editor.getByLabel('Text colour').fill('#999999');
    await editor.getByText(/^Low contrast: under 4\.5:1/).waitFor();
    expect(await editor.getByRole('status').textContent()).toContain('Contrast 2.8:1');
    await editor.getByRole('button', { name: 'Black on yellow' }).click();
    await editor.getByText(/^Low contrast/).waitFor({ state: 'detached' });
    expect(await looks(editor.getByTestId('caption-preview'))).toEqual({ font: 'OpenDyslexic', color: 'rgb(0, 0, 0)', row: '2' });
    await editor.getByRole('button', { name: 'Save style' }).click();
    await editor.waitFor({ state: 'detached' });
    expect(await looks(captionMode.getByTestId('captions'))).toEqual({ font: 'OpenDyslexic', color: 'rgb(0, 0, 0)', row: '2' });
    expect(await captionMode.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(253, 224, 71)');
    await captionMode.getByTestId('captions').getByText('good morning everyone').waitFor();
    await expect.poll(() => page.evaluate(() => [...document.fonts].some((f) => f.family.replace(/"/g, '') === 'OpenDyslexic' && f.status === 'loaded'))).toBe(true);
    await captionMode.getByRole('button', { name: 'Exit caption mode' }).click();
    await captionMode.waitFor({ state: 'detached' });
    // The same account in another browser profile has it.
    const elsewhere = await deviceContext(browser, { account: pro });
    const profile = await elsewhere.newPage();
    await profile.goto('/profile');
    await expect.poll(() => looks(profile.getByRole('region', { name: 'Caption style' }).getByTestId('profile-caption-style'))).toEqual({ font: 'OpenDyslexic', color: 'rgb(0, 0, 0)', row: '2' });
    await elsewhere.close();

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
    // Viewers see the speaker's style; one sets their own size and colours, then goes back to it.
    const viewerPage = viewers[0]!.page;
    const viewerLook = () =>
      viewerPage.getByRole('region', { name: 'Captions' }).evaluate((el) => {
        const css = getComputedStyle(el);
        return { font: css.fontFamily.split(',')[0], size: css.fontSize, background: css.backgroundColor };
      });
    const speakers = { font: 'OpenDyslexic', size: '52px', background: 'rgb(253, 224, 71)' };
    await expect.poll(viewerLook).toEqual(speakers);
    await viewerPage.getByRole('button', { name: 'Larger text' }).click();
    await viewerPage.getByRole('combobox', { name: 'Colours' }).selectOption('White on black');
    expect(await viewerLook()).toEqual({ font: 'OpenDyslexic', size: '64px', background: 'rgb(0, 0, 0)' });
    await viewerPage.getByRole('button', { name: "Speaker's style" }).click();
    expect(await viewerLook()).toEqual(speakers);

    await s.final('thank you for coming');
    said += ' thank you for coming';
    await allShow(said);

    // One phone drops off the network while the speaker goes on.
    const [offline, ...online] = viewers as [Viewer, Viewer, Viewer];
    await offline.context.setOffline(true);
    await s.final('this part is said');
    said += ' this part is said';
    await offline.page.getByText('Connection lost. Reconnecting…').waitFor();
    // Said once the phone knows it is offline: these words cannot reach it until it is back.
    await s.final('while one phone is offline');
    said += ' while one phone is offline';
    await allShow(said, online);
    // The request it held at the server when the network went may still have brought the words
    // said just before; either way what it shows is what was said, in order, with nothing missing or twice.
    const whileOffline = (await captionText(offline.page))!;
    expect(whileOffline.startsWith('good morning everyone thank you for coming')).toBe(true);
    expect(said.startsWith(whileOffline)).toBe(true);
    expect(whileOffline).not.toBe(said);
    await offline.context.setOffline(false);
    await allShow(said);
    await s.final('and it caught up');
    said += ' and it caught up';
    await allShow(said);
    await offline.page.getByText('Connection lost. Reconnecting…').waitFor({ state: 'detached' });

    // The overlay for a video mixer's browser source (1920×1080): its link copied from the panel,
    // the newest two lines only, in order, at the lower third, on a page transparent elsewhere.
    await panel.getByRole('button', { name: 'Copy overlay link' }).click();
    await panel.getByText('Overlay link copied').waitFor();
    const overlayLink = await page.evaluate(() => navigator.clipboard.readText());
    expect(overlayLink).toBe(`${link}/overlay`);
    expect(await panel.getByRole('textbox', { name: 'Overlay for OBS or vMix' }).inputValue()).toBe(overlayLink);
    const overlayContext = await deviceContext(browser, { cookiesAccepted: false }, { viewport: { width: 1920, height: 1080 } });
    const overlay = await overlayContext.newPage();
    await overlay.goto(`${overlayLink}?lines=2&position=lower-third&size=120&font=comic`);
    const overlayCaptions = overlay.getByRole('region', { name: 'Captions' });
    const overlayLines = () => overlayCaptions.locator(':scope > div').allTextContents();
    // Two whole lines ending with the newest words, the older ones dropped (the text is longer).
    const overlayShowsEnd = () =>
      expect.poll(async () => {
        const lines = await overlayLines();
        return lines.length === 2 && said.endsWith(` ${lines.join(' ')}`);
      }).toBe(true);
    await overlayShowsEnd();
    await s.final('for the stream');
    said += ' for the stream';
    await overlayShowsEnd();
    expect(await overlayLines()).toSatisfy((lines: string[]) => lines[1]!.endsWith('for the stream'));
    // Each line fits the width (wrapped, not clipped); the unknown font was ignored (the speaker's).
    expect(await overlayCaptions.locator(':scope > div').evaluateAll((els) => els.every((el) => el.scrollWidth <= el.clientWidth))).toBe(true);
    expect((await looks(overlayCaptions)).font).toBe('OpenDyslexic');
    const box = (await overlayCaptions.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(720);
    expect(box.y + box.height).toBeLessThan(1080);
    // Nothing but the captions: no header, footer, cookie notice or other region, no scrolling.
    expect(await overlay.locator('header, footer, [role="banner"], [role="contentinfo"], [role="dialog"]').count()).toBe(0);
    expect(await overlay.getByRole('region').count()).toBe(1);
    expect(
      await overlay.evaluate(() => ({
        html: getComputedStyle(document.documentElement).backgroundColor,
        body: getComputedStyle(document.body).backgroundColor,
        scrolls: document.documentElement.scrollHeight > innerHeight || document.documentElement.scrollWidth > innerWidth,
      })),
    ).toEqual({ html: 'rgba(0, 0, 0, 0)', body: 'rgba(0, 0, 0, 0)', scrolls: false });
    const png = await overlay.screenshot({ omitBackground: true });
    const alphas = await overlay.evaluate(
      async ({ b64, inside }) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
        const ctx = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!;
        ctx.drawImage(bitmap, 0, 0);
        const alpha = ([x, y]: number[]) => ctx.getImageData(x!, y!, 1, 1).data[3];
        const [w, h] = [bitmap.width - 1, bitmap.height - 1];
        return { corners: [[0, 0], [w, 0], [0, h], [w, h]].map(alpha), inside: alpha(inside), size: [bitmap.width, bitmap.height] };
      },
      { b64: png.toString('base64'), inside: [4, Math.round(box.y) + 4] },
    );
    // The corners fully transparent; the captions' own background (the speaker's, opaque) painted.
    expect(alphas).toEqual({ corners: [0, 0, 0, 0], inside: 255, size: [1920, 1080] });

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
    // The overlay clears: no captions left over the video.
    await overlayCaptions.waitFor({ state: 'detached' });
    for (const v of viewers) {
      await v.page.getByText('The speaker stopped sharing.').waitFor();
      expect(await captionText(v.page)).toBe(said);
    }
    // Viewers, signed out, only called public routes (no auth-only fetch, nothing refused or failed).
    for (const v of viewers) {
      expect(v.answers.filter((a) => authOf(a.method, a.path) !== 'none' || a.status === 401 || a.status >= 500)).toEqual([]);
      expect(v.answers.some((a) => a.method === 'POST' && a.path.endsWith('/viewers'))).toBe(true);
    }
    await Promise.all([speakerContext, overlayContext, ...viewers.map((v) => v.context)].map((ctx) => ctx.close()));
  }, 90_000);

  it('a wrong or expired link says so', async () => {
    const viewer = await openViewer('/live/AAAAAAAAAAAA');
    await viewer.page.getByRole('heading', { name: 'Live captions not found' }).waitFor();
    await viewer.context.close();
  });
});
