import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CORRECTIONS } from '@app/shared/constants';
import { routeUrl } from '@app/shared/routes';
import { registerAccount } from './browser.ts';
import { installTranslator, removeTranslator } from './fake-translator.ts';
import { card, deviceContext, openApi, openBrowser, speech, startRecording } from './journeys.ts';

/**
 * On-device recognition and translated captions, on the scripted recognizer and Translator shaped
 * as their drafts (fake-speech.ts, fake-translator.ts): installing a language then recording
 * privately; a network drop that moves recognition to the device and back with nothing lost or
 * repeated; a viewer reading a translation while the speaker talks; and a browser without
 * either API, which gets the fallbacks.
 */
const browser = await openBrowser();
const api = await openApi();

const badge = (page: Page) => card(page).root.getByText(/^Recognizer: /);
const privateBox = (page: Page) => card(page).root.getByRole('checkbox', { name: 'Private: audio stays on this device' });

/** Each phrase's number of occurrences in the text. */
const counts = (text: string, phrases: string[]) => phrases.map((p) => text.split(p).length - 1);

describe('on-device recognition', () => {
  it('installs the language on a click, with progress, then records privately on the device', async () => {
    const context = await deviceContext(browser, { speech: true, onDevice: { 'en-US': 'downloadable' } });
    const page = await context.newPage();
    await page.goto('/');
    const c = card(page);
    await c.root.getByText('On this device: can be installed').waitFor();
    expect(await privateBox(page).isDisabled()).toBe(true);
    // The download lasts until the progress has been seen, however slow the machine.
    await page.evaluate(() => (window.__speech.holdInstalls = true));
    await c.root.getByRole('button', { name: 'Install English (United States) on this device' }).click();
    await c.root.getByRole('progressbar', { name: 'Installing the language pack' }).waitFor();
    await c.root.getByText('On this device: downloading…').waitFor();
    await page.evaluate(() => window.__speech.finishInstalls());
    await c.root.getByText('English (United States) is installed: recognition can run on this device.').waitFor();
    await c.root.getByText('On this device: installed').waitFor();
    expect(await page.evaluate(() => window.__speech.installs)).toEqual([{ langs: ['en-US'], gesture: true }]);

    await privateBox(page).check();
    await startRecording(page);
    expect(await speech(page).active()).toMatchObject({ lang: 'en-US', processLocally: true });
    expect(await badge(page).textContent()).toBe('Recognizer: on this device');
    await speech(page).final('said in private');
    await expect.poll(() => c.transcriptText()).toBe('said in private');
    await context.close();
  });

  it('a network drop mid-session moves recognition to the device and back, every phrase once', async () => {
    const context = await deviceContext(browser, { speech: true, onDevice: { 'en-US': 'available' } });
    const page = await context.newPage();
    await page.goto('/');
    const c = card(page);
    const s = speech(page);
    await c.root.getByText('On this device: installed').waitFor();
    await startRecording(page);
    expect(await badge(page).textContent()).toBe('Recognizer: cloud service');
    const phrases = ['alpha one', 'bravo two', 'charlie three', 'delta four', 'echo five', 'foxtrot six'];
    await s.final(phrases[0]!);
    // Words still interim when the network drops are kept, once.
    await s.interim(phrases[1]!);
    await context.setOffline(true);
    await expect.poll(() => badge(page).textContent()).toBe('Recognizer: on this device (offline)');
    await expect.poll(async () => (await s.active())?.processLocally).toBe(true);
    await s.final(phrases[2]!);
    await s.interim(phrases[3]!);
    await context.setOffline(false);
    await expect.poll(() => badge(page).textContent()).toBe('Recognizer: cloud service');
    await expect.poll(async () => (await s.active())?.processLocally).toBe(false);
    await s.final(phrases[4]!);
    await s.final(phrases[5]!);
    await expect.poll(() => c.transcriptText()).toBe(phrases.join(' '));
    expect(counts(await c.transcriptText(), phrases)).toEqual([1, 1, 1, 1, 1, 1]);
    // Three recognizers: cloud, on-device, cloud; no error toast, still recording.
    const started = (await page.evaluate(() => window.__speech.log)).filter((e) => e.type === 'start').map((e) => e.processLocally);
    expect(started).toEqual([false, true, false]);
    await c.statusIs('Recording');
    await context.close();
  });

  it('when the device turns out to lack the language, it explains and the cloud recognizer carries on with nothing lost', async () => {
    const context = await deviceContext(browser, { speech: true, onDevice: { 'en-US': 'available' } });
    const page = await context.newPage();
    await page.goto('/');
    const c = card(page);
    await privateBox(page).check();
    await startRecording(page);
    await speech(page).final('first words');
    await page.evaluate(() => (window.__speech.onDeviceError = 'service-not-allowed'));
    await speech(page).error('service-not-allowed');
    const alert = c.root.getByRole('alert');
    await alert.getByText(/On-device recognition is not available here \(service-not-allowed\)/).waitFor();
    await c.statusIs('Paused');
    await alert.getByRole('button', { name: 'Continue with the cloud recognizer' }).click();
    await speech(page).waitStarted(2);
    expect(await speech(page).active()).toMatchObject({ processLocally: false });
    await speech(page).final('more words');
    await expect.poll(() => c.transcriptText()).toBe('first words more words');
    expect(await badge(page).textContent()).toBe('Recognizer: cloud service');
    await context.close();
  });
});

describe('translated captions', () => {
  it('a viewer reads a translation made in their browser while the speaker talks: each piece once, in order', async () => {
    const pro = await registerAccount(api, 'translate-speaker', 'pro');
    const corrections = { ...DEFAULT_CORRECTIONS, paragraphSilence: null };
    expect((await api.put(routeUrl('putCorrections'), { headers: { authorization: `Bearer ${pro.token}` }, data: corrections })).status()).toBe(200);
    const speakerContext = await deviceContext(browser, { account: pro, speech: true });
    await installTranslator(speakerContext, { 'en>pt': 'available' });
    const page = await speakerContext.newPage();
    const c = card(page);
    const s = speech(page);
    await page.goto('/');
    await c.root.getByRole('button', { name: 'English (United States)' }).click();
    await startRecording(page);

    // The speaker's own second line, in caption mode.
    await page.keyboard.press('c');
    const captionMode = page.getByRole('dialog', { name: 'Caption mode' });
    await captionMode.getByRole('combobox', { name: 'Second line in' }).selectOption('pt');
    await captionMode.getByText('Translated on this device into Portuguese: nothing is sent anywhere.').waitFor();
    await s.final('hello everyone');
    await expect.poll(() => captionMode.getByRole('region', { name: 'Translation' }).textContent()).toBe('«pt» hello everyone');
    await page.keyboard.press('Escape');
    await captionMode.waitFor({ state: 'detached' });

    await c.root.getByRole('button', { name: 'Share live', exact: true }).click();
    const link = await c.root.getByRole('region', { name: 'Live captions link' }).getByRole('textbox', { name: 'Live link' }).inputValue();

    const viewerContext = await deviceContext(browser, {});
    await installTranslator(viewerContext, { 'en>es': 'downloadable' });
    const viewer = await viewerContext.newPage();
    await viewer.goto(link);
    // The choice appears with the share's first answer (its language known).
    const choice = viewer.getByRole('combobox', { name: 'Translate captions into' });
    await choice.waitFor();
    // Typing picks the language as a person does (a key press is the gesture a download needs).
    // The download lasts until the progress has been seen, however slow the machine.
    await viewer.evaluate(() => (window.__translator.holdDownloads = true));
    await choice.press('S');
    expect(await choice.inputValue()).toBe('es');
    await viewer.getByText('Downloading the translation model: 50%').waitFor();
    await viewer.evaluate(() => window.__translator.finishDownloads());
    await viewer.getByText('Translated on this device into Spanish: nothing is sent anywhere.').waitFor();
    const translated = viewer.getByRole('region', { name: 'Translation' });
    const phrases = ['first point', 'second point', 'third point', 'fourth point'];
    for (const phrase of phrases) await s.final(phrase);
    // Pieces arrive as the viewer polls (one or more finals each); each is translated once, in order.
    await expect.poll(() => translated.textContent()).toContain('fourth point');
    const text = (await translated.textContent())!;
    expect(counts(text, phrases)).toEqual([1, 1, 1, 1]);
    const at = phrases.map((p) => text.indexOf(p));
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    // Every phrase went through the translator exactly once: no piece was translated again.
    const calls = await viewer.evaluate(() => window.__translator.calls.map((call) => call.text));
    expect(counts(calls.join(' | '), phrases)).toEqual([1, 1, 1, 1]);
    expect(text.split('«es»').length - 1).toBe(calls.length);
    expect(await viewer.evaluate(() => window.__translator.creates)).toEqual([{ pair: 'en>es', gesture: true }]);
    await viewerContext.close();
    await speakerContext.close();
  });

  it('a browser without on-device recognition or the Translator gets the fallbacks: no private option, the original captions', async () => {
    const context = await deviceContext(browser, { speech: true });
    await removeTranslator(context);
    const page = await context.newPage();
    await page.goto('/');
    await startRecording(page);
    expect(await privateBox(page).count()).toBe(0);
    expect(await badge(page).textContent()).toBe("Recognizer: your browser's service");
    expect(await speech(page).active()).toMatchObject({ processLocally: false });
    await speech(page).final('plain captions');
    await page.keyboard.press('c');
    const captionMode = page.getByRole('dialog', { name: 'Caption mode' });
    await captionMode.getByRole('combobox', { name: 'Second line in' }).selectOption('es');
    await captionMode
      .getByText('This browser has no on-device translation (the Translator API; phones do not have it yet). The original captions are shown.')
      .waitFor();
    expect(await captionMode.getByRole('region', { name: 'Translation' }).count()).toBe(0);
    await captionMode.getByTestId('captions').getByText('plain captions').waitFor();
    await context.close();
  });
});
