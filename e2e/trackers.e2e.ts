import type { BrowserContext, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { registerAccount, TRACKER_HOSTS } from './browser.ts';
import { card, deviceContext, openApi, openBrowser, speech, startRecording } from './journeys.ts';
import { E2E_ANALYTICS_ID, E2E_RECORDING_ID } from './web-build.ts';

/**
 * What measurement sees, under the production CSP, with the build's analytics and session
 * recording ids: stand-ins of the two tags (Google's gtag.js and Microsoft Clarity's) answer
 * their hosts and send what the real ones would collect to their collectors, here recorded.
 * - The analytics stand-in reports every command the page gives gtag, and a page view per
 *   `config` and per address change, each with the page address gtag reads (`page_location`
 *   once set, else the address bar) and the document title, unless the page set `ga-disable-<id>`.
 * - The recording stand-in reports the page as Clarity records it: the address, the title,
 *   every text and form value outside elements marked `data-clarity-mask`, until `clarity('stop')`.
 * A user records, shares live, saves and browses their transcriptions with both tags running; then
 * the live link opens in the same profile. No transcript text, title, share code or token reaches
 * either collector, the live page loads neither tag, and both collectors did hear from the pages.
 */
const browser = await openBrowser();
const api = await openApi();

const ANALYTICS_TAG = `
(function () {
  var id = new URL(document.currentScript.src).searchParams.get('id');
  var config = {}, done = 0;
  var off = function () { return window['ga-disable-' + id] === true; };
  var hit = function (payload) {
    if (off()) return;
    payload.dl = config.page_location || location.href;
    payload.dt = document.title;
    fetch('https://www.google-analytics.com/g/collect', { method: 'POST', body: JSON.stringify(payload), keepalive: true });
  };
  var run = function () {
    var layer = window.dataLayer || [];
    for (; done < layer.length; done++) {
      var args = Array.prototype.slice.call(layer[done]);
      if (args[0] === 'config' || args[0] === 'set') Object.assign(config, args[args.length - 1] || {});
      hit({ command: args });
      if (args[0] === 'config') hit({ event: 'page_view' });
    }
  };
  run();
  var push = window.dataLayer.push;
  window.dataLayer.push = function () { var out = push.apply(this, arguments); run(); return out; };
  var pushState = history.pushState;
  history.pushState = function () { var out = pushState.apply(this, arguments); setTimeout(function () { hit({ event: 'page_view' }); }, 50); return out; };
})();`;

const RECORDING_TAG = `
(function () {
  var stopped = false;
  var queued = (window.clarity && window.clarity.q) || [];
  window.clarity = function () { if (arguments[0] === 'stop') stopped = true; };
  queued.forEach(function (args) { if (args[0] === 'stop') stopped = true; });
  var masked = function (node) { return !!(node.closest && node.closest('[data-clarity-mask="true"]')); };
  var record = function () {
    if (stopped) return;
    var texts = [];
    var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (var n = walker.nextNode(); n; n = walker.nextNode()) {
      var el = n.parentElement;
      var text = n.nodeValue.trim();
      if (text && el && !/^(SCRIPT|STYLE|NOSCRIPT)$/.test(el.tagName) && !masked(el)) texts.push(text);
    }
    document.querySelectorAll('input, textarea').forEach(function (field) { if (field.value && !masked(field)) texts.push(field.value); });
    fetch('https://www.clarity.ms/collect', { method: 'POST', body: JSON.stringify({ url: location.href, title: document.title, texts: texts }), keepalive: true });
  };
  record();
  setInterval(record, 300);
})();`;

interface Collected {
  analytics: unknown[];
  recording: { url: string; title: string; texts: string[] }[];
  /** Every tracker request, with the address of the page that made it. */
  requests: { url: string; page: string }[];
}

/** Answers the tag hosts in `context` with the stand-ins and records what reaches their collectors. */
async function standIns(context: BrowserContext): Promise<Collected> {
  const collected: Collected = { analytics: [], recording: [], requests: [] };
  const js = (route: Route, body: string) => route.fulfill({ status: 200, contentType: 'application/javascript', body });
  await context.route(TRACKER_HOSTS, async (route) => {
    const request = route.request();
    const url = new URL(request.url());
    collected.requests.push({ url: request.url(), page: request.frame().url() });
    if (url.host === 'www.googletagmanager.com' && url.pathname === '/gtag/js' && url.searchParams.get('id') === E2E_ANALYTICS_ID) return js(route, ANALYTICS_TAG);
    if (url.host === 'www.clarity.ms' && url.pathname === `/tag/${E2E_RECORDING_ID}`) return js(route, RECORDING_TAG);
    if (url.host === 'www.google-analytics.com' && url.pathname === '/g/collect') collected.analytics.push(request.postDataJSON());
    else if (url.host === 'www.clarity.ms' && url.pathname === '/collect') collected.recording.push(request.postDataJSON());
    else return route.fulfill({ status: 404, body: '' });
    return route.fulfill({ status: 204, body: '' });
  });
  return collected;
}

describe('measurement never sees private text', () => {
  it('analytics and session recording get no transcript text, title, share code or token, and nothing at all from a live page', async () => {
    const pro = await registerAccount(api, 'trackers', 'pro');
    const context = await deviceContext(browser, { account: pro, speech: true });
    const collected = await standIns(context);
    const page = await context.newPage();
    const c = card(page);
    const s = speech(page);
    const SPOKEN = 'the merger closes on friday';
    const TITLE = 'Quarterly merger notes';

    await page.goto('/');
    await startRecording(page);
    await s.final(SPOKEN);
    await expect.poll(() => c.transcript.textContent()).toContain(SPOKEN);
    // The recording tag has looked at the page with the words on it.
    const seen = collected.recording.length;
    await expect.poll(() => collected.recording.length).toBeGreaterThan(seen + 1);

    await c.root.getByRole('checkbox', { name: 'Also show what was said before sharing' }).check();
    await c.root.getByRole('button', { name: 'Share live', exact: true }).click();
    const link = await c.root.getByRole('region', { name: 'Live captions link' }).getByRole('textbox', { name: 'Live link' }).inputValue();
    const code = link.split('/live/')[1]!;
    const shared = collected.recording.length;
    await expect.poll(() => collected.recording.length).toBeGreaterThan(shared + 1);

    await c.button('Stop').click();
    await c.button('Save').click();
    const dialog = page.getByRole('dialog', { name: 'Save transcription' });
    await dialog.getByLabel('Title').fill(TITLE);
    const typed = collected.recording.length;
    await expect.poll(() => collected.recording.length).toBeGreaterThan(typed + 1);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The saved list and the transcription itself, reached through the menu (an address change).
    // By keyboard: the "saved" notification may still cover the header under the pointer.
    await page.getByRole('navigation').getByRole('link', { name: 'Saved', exact: true }).first().focus();
    await page.keyboard.press('Enter');
    await page.getByRole('main').getByText(TITLE).click();
    await page.getByRole('dialog').getByText(SPOKEN).waitFor();
    const opened = collected.recording.length;
    await expect.poll(() => collected.recording.length).toBeGreaterThan(opened + 1);

    // The live page, in the same consenting profile: neither tag loads there.
    const viewer = await context.newPage();
    await viewer.goto(`/live/${code}`);
    await viewer.getByRole('region', { name: 'Captions' }).getByText(SPOKEN).waitFor();
    // A measured page starts measurement in its first idle time: once this page's first idle
    // callback has run and its network is quiet (the share ended: no more polls), it would have.
    await viewer.getByText('The speaker stopped sharing.').waitFor();
    await viewer.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 5_000 })));
    await viewer.waitForLoadState('networkidle');
    await page.close();

    const everything = JSON.stringify([collected.analytics, collected.recording, collected.requests.map((r) => r.url)]);
    expect(collected.analytics.length).toBeGreaterThan(0);
    // The recording tag read the page (what is not the user's own: the header, the footer).
    expect(collected.recording.some((r) => r.texts.length > 0)).toBe(true);
    expect(collected.analytics.some((a) => (a as { event?: string }).event === 'page_view')).toBe(true);
    for (const secret of [SPOKEN, 'merger', TITLE, code, pro.token]) expect(everything, secret).not.toContain(secret);
    expect(collected.requests.filter((r) => r.page.includes('/live/'))).toEqual([]);
    await context.close();
  });
});
