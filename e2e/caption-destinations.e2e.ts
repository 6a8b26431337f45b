import { describe, expect, it } from 'vitest';
import { DEFAULT_CORRECTIONS } from '@app/shared/constants';
import { isApiPath, routeUrl } from '@app/shared/routes';
import { baseUrl, registerAccount } from './browser.ts';
import { card, deviceContext, openApi, openBrowser, speech, startRecording } from './journeys.ts';

/**
 * Captions sent into YouTube Live and Zoom: a Pro speaker adds a YouTube and a Zoom destination on
 * the local caption receiver (which stands in for both services, as the mail outbox does for mail)
 * in the share panel; the server relays every final from the table's stream, as Lambda does on
 * AWS, while an overlay (another browser profile) shows them on its transparent page. Each arrives
 * once, in order, numbered 1, 2, 3…, in each service's documented format; the
 * Zoom receiver fails with 500 for a while and everything still arrives once. A wrong address is
 * refused with nothing sent; a viewer's answers never hold a destination.
 */
const browser = await openBrowser();
const api = await openApi();

interface Received {
  service: 'youtube' | 'zoom';
  seq: number | null;
  lang: string | null;
  contentType: string;
  body: string;
  status: number;
  duplicate: boolean;
}
const received = async (key: string): Promise<Received[]> =>
  (await (await api.get(`/_local/captions/received?key=${encodeURIComponent(key)}`)).json()) as Received[];
/** What a destination's service accepted, retries of an accepted number left out. */
const accepted = async (key: string) => (await received(key)).filter((r) => r.status === 200 && !r.duplicate);
const captionOf = (r: Received) => (r.service === 'youtube' ? r.body.split('\n')[1]! : r.body);
const words = (text: string) => text.replace(/[^\p{L}\p{N} ]/gu, '').replace(/\s+/g, ' ').trim().toLowerCase();

describe('caption destinations', () => {
  it('relays every final once, in order, into YouTube and Zoom, through 500s; refuses wrong addresses; viewers never see one', async () => {
    const pro = await registerAccount(api, 'relay-speaker', 'pro');
    const corrections = { ...DEFAULT_CORRECTIONS, paragraphSilence: null };
    expect((await api.put(routeUrl('putCorrections'), { headers: { authorization: `Bearer ${pro.token}` }, data: corrections })).status()).toBe(200);
    const context = await deviceContext(browser, { account: pro, speech: true });
    const page = await context.newPage();
    const c = card(page);
    const s = speech(page);
    await page.goto('/');
    await startRecording(page);
    await s.final('before the destinations');
    await c.root.getByRole('button', { name: 'Share live', exact: true }).click();
    const panel = c.root.getByRole('region', { name: 'Live captions link' });
    const link = await panel.getByRole('textbox', { name: 'Live link' }).inputValue();

    const run = Date.now().toString(36);
    const ytKey = `yt-${run}`;
    const zoomKey = `zoom-${run}`;
    const form = panel.getByRole('form', { name: 'Add destination' });
    const add = async (service: 'YouTube Live' | 'Zoom', field: string, url: string) => {
      await form.getByRole('combobox', { name: 'Service' }).selectOption(service);
      await form.getByRole('textbox', { name: field }).fill(url);
      await form.getByRole('button', { name: 'Add destination' }).click();
    };
    // Refused: http, another host, an address on this machine; nothing stored, nothing sent.
    for (const url of ['http://upload.youtube.com/closedcaption?cid=x', 'https://upload.youtube.com.example.org/closedcaption?cid=x', 'https://127.0.0.1/closedcaption?cid=x']) {
      await add('YouTube Live', 'Caption ingestion URL', url);
      await form.getByText(/That is not a YouTube caption ingestion URL/).waitFor();
    }
    await add('Zoom', 'Zoom API token', 'https://wmcc.zoom.us.example.org/closedcaption?id=1');
    await form.getByText(/That is not a Zoom caption API token/).waitFor();
    expect(await panel.getByRole('listitem').count()).toBe(0);

    await add('YouTube Live', 'Caption ingestion URL', `${baseUrl()}/_local/captions/youtube/closedcaption?cid=${ytKey}`);
    const yt = panel.getByRole('listitem', { name: /^YouTube Live / });
    await yt.getByText('Waiting for words').waitFor();
    await add('Zoom', 'Zoom API token', `${baseUrl()}/_local/captions/zoom/closedcaption?id=${zoomKey}&ns=bG9jYWw%3D`);
    const zoom = panel.getByRole('listitem', { name: /^Zoom / });
    await zoom.getByText('Waiting for words').waitFor();
    // The Zoom receiver fails for its next three requests.
    expect((await api.put('/_local/captions/faults', { data: { key: zoomKey, status: 500, count: 3 } })).status()).toBe(204);

    // A viewer follows: none of its answers holds a destination.
    const viewerContext = await deviceContext(browser, {});
    const viewer = await viewerContext.newPage();
    const bodies: string[] = [];
    viewer.on('response', (response) => {
      if (isApiPath(new URL(response.url()).pathname)) void response.text().then((t) => bodies.push(t), () => undefined);
    });
    await viewer.goto(link);

    // The overlay for a video mixer, in another browser profile, shows the same captions.
    const overlayContext = await deviceContext(browser, { cookiesAccepted: false }, { viewport: { width: 1920, height: 1080 } });
    const overlay = await overlayContext.newPage();
    await overlay.goto(`${link}/overlay?lines=2&position=lower-third`);

    const finals = ['the first caption', 'then a second one', 'and a third', 'a fourth right after', 'and the last words'];
    for (const [i, f] of finals.entries()) {
      await s.final(f);
      // Some pile up (merged into one caption), some come alone.
      if (i % 2 === 1) await page.waitForTimeout(1_200);
    }
    const expected = words(finals.join(' '));
    for (const key of [ytKey, zoomKey]) {
      await expect.poll(async () => words((await accepted(key)).map(captionOf).join(' ')), { timeout: 30_000 }).toBe(expected);
    }
    for (const key of [ytKey, zoomKey]) {
      const got = await accepted(key);
      expect(got.map((r) => r.seq)).toEqual(got.map((_, i) => i + 1));
      for (const r of got) expect(r.contentType).toMatch(/^text\/plain/);
    }
    const ytGot = await accepted(ytKey);
    for (const r of ytGot) expect(r.body).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\n[^\n]+\n$/);
    const zoomAll = await received(zoomKey);
    expect(zoomAll.filter((r) => r.status === 500)).toHaveLength(3);
    // The failed requests were retries: the first caption's number and text, never a new one.
    expect(new Set(zoomAll.filter((r) => r.status === 500).map((r) => `${r.seq}:${r.body}`)).size).toBe(1);
    expect((await accepted(zoomKey)).every((r) => r.lang === 'en-US')).toBe(true);
    // What was said before the destinations was not sent.
    expect(words(ytGot.map(captionOf).join(' '))).not.toContain('before the destinations');

    const overlayCaptions = overlay.getByRole('region', { name: 'Captions' });
    await expect.poll(async () => words((await overlayCaptions.allTextContents()).join(' '))).toMatch(/and the last words$/);
    const png = await overlay.screenshot({ omitBackground: true });
    const corners = await overlay.evaluate(async (b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const ctx = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!;
      ctx.drawImage(bitmap, 0, 0);
      const [w, h] = [bitmap.width - 1, bitmap.height - 1];
      return [[0, 0], [w, 0], [0, h], [w, h]].map(([x, y]) => ctx.getImageData(x!, y!, 1, 1).data[3]);
    }, png.toString('base64'));
    expect(corners).toEqual([0, 0, 0, 0]);

    // The speaker sees both up to date.
    await expect.poll(() => yt.textContent(), { timeout: 10_000 }).toMatch(/Up to date · last delivered/);
    await expect.poll(() => zoom.textContent(), { timeout: 10_000 }).toMatch(/Up to date · last delivered/);

    // Paused, a destination gets nothing; removed, it is gone.
    await zoom.getByRole('button', { name: /^Pause Zoom / }).click();
    await zoom.getByText('Paused').waitFor();
    const zoomCount = (await received(zoomKey)).length;
    await s.final('only for youtube');
    await expect.poll(async () => words((await accepted(ytKey)).map(captionOf).join(' ')), { timeout: 15_000 }).toBe(`${expected} only for youtube`);
    expect((await received(zoomKey)).length).toBe(zoomCount);
    await zoom.getByRole('button', { name: /^Remove Zoom / }).click();
    await zoom.waitFor({ state: 'detached' });

    await expect.poll(() => bodies.length).toBeGreaterThan(0);
    for (const body of bodies) expect(body).not.toMatch(new RegExp(`${ytKey}|${zoomKey}|closedcaption`));
    await Promise.all([context.close(), viewerContext.close(), overlayContext.close()]);
  }, 120_000);
});
