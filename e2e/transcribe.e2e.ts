import type { BrowserContextOptions, Locator, Page } from 'playwright-core';
import { parseSync, type NodeCue } from 'subtitle';
import { describe, expect, it } from 'vitest';
import { routeUrl } from '@app/shared/routes';
import { RECOGNITION_RESTART_MS } from '@app/shared/constants';
import { downloadedDocx, downloadedText, registerAccount, type Account } from './browser.ts';
import { removeSpeech } from './fake-speech.ts';
import { BLOCK_MAX, CHAPTER_MAX } from '../web/src/features/transcribe/lib/transcript-store.ts';
import { SETTLE_BELOW_CHARS } from '../web/src/features/transcribe/components/transcript-view.tsx';
import {
  card,
  deviceContext,
  dismissUpgradeModal,
  inViewport,
  openApi,
  openBrowser,
  speech,
  startRecording,
  storedSegmentTexts,
  uncovered,
  visibleText as text,
} from './journeys.ts';

/**
 * Live transcription in Chromium against the real local server, with a scripted recognizer
 * injected before the page loads (the product uses only the standard interface):
 * the card's state machine, the confirm dialog, recognizer restarts, the visitor
 * limit on Playwright's clock, Pro-only languages, reload recovery, errors,
 * shortcuts and caption mode, saving, and SRT/VTT files read by the `subtitle` parser; and on
 * three laptop screens and a phone: Start on the first screen, the status and timer in view after
 * it, and the newest words never under the header, the cookie notice or the edge of the screen.
 */
const browser = await openBrowser();
const api = await openApi();

/** A context with the fake recognizer, cookies accepted, optionally signed in (no survey). */
const openContext = (account?: Account) => deviceContext(browser, { account, speech: true });

/** A visitor's page on home, with the card and its scripted recognizer. */
async function openHome() {
  const context = await openContext();
  const page = await context.newPage();
  await page.goto('/');
  return { context, page, c: card(page), s: speech(page) };
}

const proAccount = () => registerAccount(api, 'transcribe-pro', 'pro');

/** Pixels of text below the visible part of the transcript. */
const pixelsBelow = (c: ReturnType<typeof card>) => () => c.transcript.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);

/** `count` final results, each long enough to wrap onto another line, until the last one is shown. */
async function wrappingFinals(c: ReturnType<typeof card>, s: ReturnType<typeof speech>, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await s.final(`sentence number ${i} has enough words in it to wrap onto another line of the card.`);
  await c.transcript.getByText(`sentence number ${count - 1}`, { exact: false }).waitFor();
}

/** Two frames of the page rendered. */
const twoFrames = (page: Page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

const toast = (page: Page, content: string | RegExp) => page.getByRole('region', { name: /Notifications/ }).getByText(content);

describe('live transcription card', () => {
  it('runs the whole state machine: start, interim/final, restart, pause, resume, stop, confirm, clear', async () => {
    const { context, page, c, s } = await openHome();
    await card(page).statusIs('Ready');
    expect(await text(c.transcript)).toBe('Press Start and speak. Your words will appear here.');

    await startRecording(page);
    await card(page).statusIs('Recording');
    expect(await s.active()).toMatchObject({ lang: 'en-US', continuous: true, interimResults: true });

    await s.interim('hello wor');
    await c.transcript.getByText('hello wor').waitFor();
    await s.final('hello world.');
    await expect.poll(() => text(c.transcript)).toBe('hello world.');

    // The recognizer ends by itself: pending interim text is committed, and the next one starts
    // inside the end handler, in the same task: no speech falls between the two.
    await s.interim('pending words');
    await s.end();
    await s.waitStarted(2);
    const restart = await s.lastRestart();
    expect(restart).toMatchObject({ ended: 1, sameTask: true });
    // No timer in between (a 200 ms wait was the old restart); the page's clock is coarsened to 0.1 ms.
    expect(restart!.gapMs).toBeLessThan(RECOGNITION_RESTART_MS);
    await expect.poll(() => text(c.transcript)).toBe('hello world. pending words');
    expect(await c.transcript.locator('[data-interim]').count()).toBe(0);

    // A repeated final (Android) appears once.
    await s.final('next phrase');
    await s.emit(1, [{ transcript: 'next phrase', isFinal: true }]);
    await expect.poll(() => text(c.transcript)).toBe('hello world. pending words next phrase');

    // Pause: recognition stops, the clock holds.
    await c.button('Pause').click();
    await card(page).statusIs('Paused');
    await expect.poll(() => s.active()).toBeNull();
    const timer = c.root.getByTestId('timer');
    const held = await timer.textContent();
    await page.waitForTimeout(1200);
    expect(await timer.textContent()).toBe(held);

    // Resume: a new recognizer.
    await c.button('Resume').click();
    await s.waitStarted(3);
    await card(page).statusIs('Recording');
    await s.final('after the pause');

    // Stop keeps the last result that arrives before end.
    await s.interim('the very last words');
    await c.button('Stop').click();
    await card(page).statusIs('Stopped');
    await expect.poll(() => text(c.transcript)).toBe('hello world. pending words next phrase after the pause the very last words');
    expect(await s.log()).toContain('stop');

    // Start again with text: a confirmation. Cancel keeps the text; confirm clears and starts.
    await c.button('Start').click();
    const dialog = page.getByRole('dialog', { name: 'Start a new transcription?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await text(c.transcript)).toContain('the very last words');
    await c.button('Start').click();
    await dialog.getByRole('button', { name: 'Clear and start' }).click();
    await s.waitStarted(4);
    await card(page).statusIs('Recording');
    expect(await text(c.transcript)).toBe('Listening… start speaking.');
    await s.final('a fresh start');
    await c.button('Stop').click();
    await card(page).statusIs('Stopped');

    // Clear: empty and ready.
    await c.button('Clear').click();
    await card(page).statusIs('Ready');
    expect(await text(c.transcript)).toBe('Press Start and speak. Your words will appear here.');
    expect(await c.root.getByTestId('timer').textContent()).toBe('00:00');
    await context.close();
  });

  it('the transcript follows the newest text until the reader scrolls up; Jump to latest follows again', async () => {
    const { context, page, c, s } = await openHome();
    await startRecording(page);
    const below = pixelsBelow(c);
    await wrappingFinals(c, s, 30);
    expect(await c.transcript.evaluate((el) => el.scrollHeight > 2 * el.clientHeight)).toBe(true);
    await expect.poll(below).toBeLessThanOrEqual(1);
    await s.interim('an interim line at the very end');
    await expect.poll(below).toBeLessThanOrEqual(1);

    // Scrolled up to read: new text does not pull the reader down.
    await c.transcript.evaluate((el) => el.scrollTo({ top: 0 }));
    const jump = c.root.getByRole('button', { name: 'Jump to latest' });
    await jump.waitFor();
    await s.final('said while the reader looks back.');
    await c.transcript.getByText('said while the reader looks back.', { exact: false }).waitFor();
    await twoFrames(page);
    expect(await c.transcript.evaluate((el) => el.scrollTop)).toBe(0);

    await jump.click();
    await jump.waitFor({ state: 'hidden' });
    await expect.poll(below).toBeLessThanOrEqual(1);
    await s.final('and the newest words are in view again.');
    await c.transcript.getByText('and the newest words are in view again.', { exact: false }).waitFor();
    await expect.poll(below).toBeLessThanOrEqual(1);
    await context.close();
  });

  it('keeps following the newest text after a pause, while interim lines come and go', async () => {
    const { context, page, c, s } = await openHome();
    await startRecording(page);
    const below = pixelsBelow(c);
    await wrappingFinals(c, s, 60);
    await expect.poll(below).toBeLessThanOrEqual(1);
    await c.button('Pause').click();
    await card(page).statusIs('Paused');
    await c.button('Resume').click();
    await card(page).statusIs('Recording');
    const jump = c.root.getByRole('button', { name: 'Jump to latest' });
    // After the pause, Chromium keeps the view on what it showed as the first interim line comes in
    // (scroll anchoring): a scroll the transcript did not make, down but short of the bottom.
    for (let i = 0; i < 40; i++) {
      await s.interim(`w1 w2 w3 w4 w5 m${i}x`);
      await c.transcript.getByText(`m${i}x`, { exact: false }).waitFor();
      await s.final(`w1 w2 w3 w4 w5 m${i}x`);
      await twoFrames(page);
    }
    await expect.poll(below).toBeLessThanOrEqual(1);
    expect(await jump.count()).toBe(0);
    await context.close();
  });

  it('keeps following when a full chapter far above folds into one element in the frame a scroll is reported', async () => {
    const { context, page, c } = await openHome();
    await startRecording(page);
    const below = pixelsBelow(c);
    const jump = c.root.getByRole('button', { name: 'Jump to latest' });
    // A chapter's worth of results (CHAPTER_MAX paragraphs of BLOCK_MAX results), then the next chapter's text up
    // to just under SETTLE_BELOW_CHARS.
    const sentence = `of the open chapter ${'with words enough to fill two lines '.repeat(5)}`;
    // Each result is its sentence, "sentence <n> " before it and a space joining it: 12 characters more at most.
    const toFill = Math.floor(SETTLE_BELOW_CHARS / (sentence.length + 12)) - 1;
    await page.evaluate(
      async ({ chapter, toFill, sentence }) => {
        for (let i = 0; i < chapter; i++) {
          window.__speech.final(`word number ${i} of the first chapter.`);
          if (i % 100 === 99) await new Promise((r) => setTimeout(r, 0));
        }
        for (let i = 0; i < toFill; i++) window.__speech.final(`sentence ${i} ${sentence}`);
      },
      { chapter: CHAPTER_MAX * BLOCK_MAX, toFill, sentence },
    );
    await c.transcript.getByText(`sentence ${toFill - 1} of the open chapter`, { exact: false }).waitFor();
    await expect.poll(below).toBeLessThanOrEqual(1);
    expect(await c.transcript.locator('[data-settled]').count()).toBe(0);
    // One result settles the first chapter (its element is sized at a placeholder's height until it
    // is in view, far shorter than its text, so the browser moves the view up to keep its place) and
    // adds lines below, while a scroll of the page's own is still to be reported. It is longer than two of the
    // sentences above, so the open chapter's text crosses SETTLE_BELOW_CHARS.
    await c.transcript.evaluate((el, text) => {
      el.scrollTop -= 1;
      window.__speech.final(text);
    }, 'the result that settles the first chapter and adds lines of its own below the view '.repeat(8));
    await c.transcript.locator('[data-settled]').waitFor({ state: 'attached' });
    await twoFrames(page);
    await twoFrames(page);
    expect(await jump.count()).toBe(0);
    await expect.poll(below).toBeLessThanOrEqual(1);
    await context.close();
  });

  it('stops a visitor after 60 s of listening (pauses excluded), with a progress bar and a toast', async () => {
    const context = await openContext();
    const page = await context.newPage();
    await page.clock.install();
    const c = card(page);
    const s = speech(page);
    await page.goto('/');
    const bar = c.root.getByRole('progressbar', { name: 'Visitor time limit' });
    expect(await bar.getAttribute('aria-valuenow')).toBe('0');

    await startRecording(page);
    await s.final('counting the seconds');
    await page.clock.fastForward(30_000);
    await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(30);

    // A pause does not count.
    await c.button('Pause').click();
    await card(page).statusIs('Paused');
    await page.clock.fastForward(120_000);
    await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow'))).toBeLessThan(32);
    await c.button('Resume').click();
    await s.waitStarted(2);

    await page.clock.fastForward(31_000);
    await toast(page, 'Time limit reached').waitFor();
    await card(page).statusIs('Stopped');
    expect(await bar.getAttribute('aria-valuenow')).toBe('60');
    expect(await text(c.transcript)).toBe('counting the seconds');
    await expect.poll(() => s.active()).toBeNull();
    await context.close();
  });

  it('lets visitors use only English (others show a Pro hint); a Pro user picks any language', async () => {
    const visitor = await openContext();
    const page = await visitor.newPage();
    await page.goto('/');
    const c = card(page);
    expect(await c.language('English (United States)').getAttribute('aria-pressed')).toBe('true');
    for (const name of ['Spanish (Spain)', 'Portuguese (Brazil)', 'French (France)', 'Arabic (Saudi Arabia)', 'Hebrew (Israel)', 'Chinese (China)', 'Russian (Russia)']) {
      const button = c.language(name);
      expect(await button.getAttribute('aria-disabled'), name).toBe('true');
      expect(await button.getAttribute('aria-pressed'), name).toBe('false');
    }
    expect(await c.root.getByText('Other languages are available with Pro.').isVisible()).toBe(true);
    // The Pro hint opens the upgrade modal.
    await c.language('Spanish (Spain)').click({ force: true });
    await page.getByRole('dialog', { name: /Upgrade to Pro|Pro/ }).first().waitFor();
    await page.keyboard.press('Escape');
    expect(await c.language('Spanish (Spain)').getAttribute('aria-pressed')).toBe('false');
    await visitor.close();

    const pro = await proAccount();
    const context = await openContext(pro);
    const proPage = await context.newPage();
    await proPage.goto('/');
    const pc = card(proPage);
    // With no language chosen, the interface language's locale (English: en-US) is selected; once
    // the plan is known (a visitor's card shows English too), every language is available.
    await expect.poll(() => pc.language('Spanish (Spain)').getAttribute('aria-disabled')).toBeNull();
    expect(await pc.language('English (United States)').getAttribute('aria-pressed')).toBe('true');
    await pc.language('Arabic (Saudi Arabia)').click();
    await expect.poll(() => pc.language('Arabic (Saudi Arabia)').getAttribute('aria-pressed')).toBe('true');
    await pc.button('Start').click();
    const s = speech(proPage);
    await s.waitStarted(1);
    expect((await s.active())?.lang).toBe('ar-SA');
    // Arabic reads right to left, from the language: even text that starts with digits and Latin letters.
    await s.final('2024 iPhone مرحبا بالعالم');
    const arabic = pc.transcript.getByText('مرحبا بالعالم', { exact: false }).last();
    await arabic.waitFor();
    expect(await arabic.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    expect(await pc.transcript.getAttribute('dir')).toBe('rtl');
    // The language is locked while recording.
    expect(await pc.language('Spanish (Spain)').isDisabled()).toBe(true);
    await pc.button('Stop').click();
    // The choice is kept on this device.
    await proPage.reload();
    await expect.poll(() => card(proPage).language('Arabic (Saudi Arabia)').getAttribute('aria-pressed')).toBe('true');
    await context.close();
  });

  it('offers to restore the unsaved transcript after a reload, with its times, and continues it', async () => {
    const context = await openContext();
    const page = await context.newPage();
    const s = speech(page);
    await page.goto('/');
    await startRecording(page);
    await s.final('first sentence.');
    await s.final('second sentence.');
    await s.interim('unfinished tail');
    await card(page).transcript.getByText('unfinished tail').waitFor();
    // A second of recording on the clock, and the finals in the device's batched copy.
    await expect.poll(() => card(page).root.getByTestId('timer').textContent()).not.toBe('00:00');
    await expect.poll(() => storedSegmentTexts(page)).toEqual(['first sentence.', 'second sentence.']);

    await page.reload();
    const c = card(page);
    await c.restorePrompt.waitFor();
    await c.button('Restore').click();
    await expect.poll(() => text(c.transcript)).toBe('first sentence. second sentence. unfinished tail');
    // The restored text comes into view, below the card's controls.
    expect(await inViewport(page, c.transcript.getByText('unfinished tail'))).toBe(true);
    await card(page).statusIs('Paused');
    expect(await c.root.getByTestId('timer').textContent()).not.toBe('00:00');

    await c.button('Resume').click();
    await s.waitStarted(1);
    await s.final('and it goes on');
    await c.button('Stop').click();
    await card(page).statusIs('Stopped');
    await expect.poll(() => text(c.transcript)).toBe('first sentence. second sentence. unfinished tail and it goes on');

    // Cleared: nothing to restore next time.
    await c.button('Clear').click();
    await page.reload();
    await card(page).recoveryChecked();
    expect(await card(page).restorePrompt.count()).toBe(0);
    await context.close();
  });

  it('nothing is lost when the page reloads before the batched device-storage write', async () => {
    const context = await openContext();
    const page = await context.newPage();
    const s = speech(page);
    await page.goto('/');
    await startRecording(page);
    const phrases = Array.from({ length: 30 }, (_, i) => `phrase ${i + 1}.`);
    // All in one go, then the reload at once: the idle-time write has not run yet.
    await page.evaluate((list) => list.forEach((p) => window.__speech.final(p)), phrases);
    await s.interim('still speaking');
    await card(page).transcript.getByText('still speaking').waitFor();
    await page.reload();
    const c = card(page);
    await c.restorePrompt.waitFor();
    await c.button('Restore').click();
    await expect.poll(() => text(c.transcript)).toBe(`${phrases.join(' ')} still speaking`);
    await context.close();
  });

  it('a Pro user saves the transcript and exports SRT and VTT files that a subtitle parser reads, and a Word file', async () => {
    const pro = await proAccount();
    const context = await openContext(pro);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await context.newPage();
    await page.clock.install();
    const c = card(page);
    const s = speech(page);
    await page.goto('/');
    await c.language('English (United States)').click();
    await startRecording(page);

    const phrases = [
      'Good morning everyone and welcome to the first lecture of this course on speech recognition',
      'today we will talk about acoustic models',
      'and after a short silence about language models and how they are trained on very large text collections',
    ];
    // From here the page's clock moves only when the test moves it: the phrases' times are exact. It
    // stops 10 s ahead (a moment the page's clock is sure not to have passed, however busy the machine).
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 10_000));
    await page.clock.fastForward(500);
    await s.interim('Good morning');
    await page.clock.fastForward(6000);
    await s.final(phrases[0]!);
    await page.clock.fastForward(1000);
    await s.interim('today');
    await page.clock.fastForward(2500);
    await s.final(phrases[1]!);
    await page.clock.fastForward(4000); // silence > 2 s: a new cue, and a new paragraph (the default silence, 2 s)
    await s.interim('and after');
    await page.clock.fastForward(7000);
    await s.final(phrases[2]!);
    await page.clock.resume();
    await c.button('Stop').click();
    await card(page).statusIs('Stopped');
    const transcript = `${phrases[0]} ${phrases[1]}\n\n${phrases[2]}`;
    await expect.poll(() => text(c.transcript)).toBe(phrases.join(' '));

    const download = async (name: string) => {
      const [file] = await Promise.all([page.waitForEvent('download'), c.button(name).click()]);
      return { name: file.suggestedFilename(), body: await downloadedText(file) };
    };

    for (const format of ['SRT', 'VTT'] as const) {
      const file = await download(`Download ${format}`);
      expect(file.name).toMatch(new RegExp(`^transcript-\\d{4}-\\d{2}-\\d{2}-\\d{4}\\.${format.toLowerCase()}$`));
      if (format === 'VTT') expect(file.body.startsWith('WEBVTT\n')).toBe(true);
      else expect(file.body).toMatch(/^1\n\d{2}:\d{2}:\d{2},\d{3} --> /);
      const cues = parseSync(file.body)
        .filter((n): n is NodeCue => n.type === 'cue')
        .map((n) => n.data);
      expect(cues.length).toBeGreaterThanOrEqual(4);
      expect(cues.map((cue) => cue.text.replace(/\n/g, ' ')).join(' ')).toBe(phrases.join(' '));
      for (const [i, cue] of cues.entries()) {
        const lines = cue.text.split('\n');
        expect(lines.length).toBeLessThanOrEqual(2);
        for (const line of lines) expect(line.length).toBeLessThanOrEqual(42);
        expect(cue.end).toBeGreaterThan(cue.start);
        if (i > 0) expect(cue.start).toBeGreaterThanOrEqual(cues[i - 1]!.end);
      }
      // Times come from the session clock: the first words 0.5 s after the clock stopped (10 s and a
      // moment after Start), the last cue ending at the last final, 20.5 s of the page's clock later.
      expect(cues[0]!.start).toBeGreaterThanOrEqual(10_500);
      expect(cues[0]!.start).toBeLessThan(60_000);
      expect(cues.at(-1)!.end - cues[0]!.start).toBeGreaterThanOrEqual(20_500 - 50);
      expect(cues.at(-1)!.end - cues[0]!.start).toBeLessThanOrEqual(20_500 + 50);
      // The silence of 4 s separates the second phrase's cue from the third's.
      const third = cues.findIndex((cue) => cue.text.startsWith('and after'));
      expect(third).toBeGreaterThan(0);
      expect(cues[third]!.start - cues[third - 1]!.end).toBeGreaterThan(2000);
    }
    const txt = await download('Download TXT');
    expect(txt.body).toBe(`${transcript}\n`);
    // Word: an untitled live transcription is headed "Transcription", then its date, then its text.
    const [word] = await Promise.all([page.waitForEvent('download'), c.button('Download Word (.docx)').click()]);
    expect(word.suggestedFilename()).toMatch(/^transcript-\d{4}-\d{2}-\d{2}-\d{4}\.docx$/);
    const paragraphs = await downloadedDocx(word);
    expect(paragraphs.map((p) => p.text)).toEqual(['Transcription', expect.stringMatching(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M$/), ...transcript.split('\n\n')]);
    expect(paragraphs.some((p) => p.bidi || p.rtlRuns > 0)).toBe(false);

    await c.button('Copy text').click();
    await toast(page, 'Text copied to the clipboard').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(transcript);

    // Save: the title is required, then the route stores text and segments.
    await c.button('Save').click();
    const dialog = page.getByRole('dialog', { name: 'Save transcription' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Enter a title.').waitFor();
    await dialog.getByLabel('Title').fill('x'.repeat(101));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('The title can have at most 100 characters.').waitFor();
    await dialog.getByLabel('Title').fill('Lecture 1');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Transcription saved').waitFor();
    await dialog.waitFor({ state: 'detached' });

    const res = await api.get(routeUrl('listTranscriptions'), { headers: { authorization: `Bearer ${pro.token}` } });
    const list = (await res.json()) as { transcriptions: { _id: string; title: string; language: string; duration: number }[] };
    const saved = list.transcriptions.find((tr) => tr.title === 'Lecture 1');
    expect(saved).toMatchObject({ language: 'en-US' });
    expect(saved!.duration).toBeGreaterThanOrEqual(20);
    const detail = await api.get(routeUrl('getTranscription', { id: saved!._id }), { headers: { authorization: `Bearer ${pro.token}` } });
    const body = (await detail.json()) as { fullTranscript: string; segments: { text: string }[] };
    expect(body.fullTranscript).toBe(transcript);
    expect(body.segments.map((seg) => seg.text)).toEqual([phrases[0], phrases[1], `\n\n${phrases[2]}`]);
    await context.close();
  });

  it('shows visitors the Pro hints for saving and export', async () => {
    const { context, page, c, s } = await openHome();
    // The call to action for visitors.
    const cta = page.getByRole('region', { name: 'Get more with an account' });
    expect(await cta.getByRole('link', { name: 'Sign up free' }).getAttribute('href')).toBe('/register');
    await startRecording(page);
    await s.final('a visitor speaking');
    await c.button('Stop').click();
    for (const name of ['Download TXT', 'Download SRT', 'Download VTT', 'Download Word (.docx)', 'Copy text']) {
      expect(await c.button(name).getAttribute('aria-disabled'), name).toBe('true');
    }
    expect(await c.root.getByText('Export and copy are Pro features.').isVisible()).toBe(true);
    await c.root.getByRole('button', { name: /^Save/ }).click();
    await toast(page, 'Only Pro users can save transcriptions').waitFor();
    await context.close();
  });

  it('reports recognition errors: not-allowed explains how to allow the microphone; network reconnects', async () => {
    const { context, page, c, s } = await openHome();
    await startRecording(page);
    await s.error('network');
    await c.root.getByText('Connection lost. Reconnecting (1 of 5)…').waitFor();
    await s.waitStarted(2);
    await s.final('back online');
    await c.root.getByText('Connection lost. Reconnecting (1 of 5)…').waitFor({ state: 'detached' });
    await card(page).statusIs('Recording');

    await s.error('not-allowed');
    await toast(page, 'Transcription error').waitFor();
    await toast(page, /Microphone access is blocked \(not-allowed\)\. Click the microphone or lock icon/).waitFor();
    await card(page).statusIs('Stopped');
    await page.waitForTimeout(400);
    expect(await s.starts()).toBe(2);
    await context.close();
  });

  it('keyboard shortcuts and caption mode', async () => {
    const { context, page, c, s } = await openHome();
    await c.button('Start').waitFor();
    await page.keyboard.press('k');
    await s.waitStarted(1);
    await card(page).statusIs('Recording');
    await s.final('captions for everyone');

    await page.keyboard.press('c');
    const captions = page.getByRole('dialog', { name: 'Caption mode' });
    await captions.waitFor();
    await captions.getByTestId('captions').getByText('captions for everyone').waitFor();
    // Shown over the page, outside its main region: masked from session recording on its own.
    expect(await captions.getAttribute('data-clarity-mask')).toBe('true');
    const size = () => captions.getByTestId('captions').evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    const before = await size();
    await captions.getByRole('button', { name: 'Larger text' }).click();
    expect(await size()).toBeGreaterThan(before);
    await s.interim('live words');
    await captions.getByText('live words').waitFor();
    // Start/pause works inside caption mode (the page behind it is hidden from assistive technology).
    await page.keyboard.press('k');
    await captions.getByText('Paused').waitFor();
    await captions.getByRole('button', { name: 'Exit caption mode' }).click();
    await captions.waitFor({ state: 'detached' });
    await card(page).statusIs('Paused');

    await page.keyboard.press('?');
    const help = c.root.getByRole('region', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    expect(await text(help)).toContain('Start, pause or resume');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });

    await page.keyboard.press('s');
    await card(page).statusIs('Stopped');
    await context.close();
  });

  it('explains an unsupported browser in place of Start', async () => {
    const context = await deviceContext(browser, {});
    await removeSpeech(context);
    const page = await context.newPage();
    await page.goto('/');
    const c = card(page);
    await c.root.getByText('Live transcription is not available in this browser').waitFor();
    await toast(page, 'Browser not supported').waitFor();
    expect(await c.button('Start').count()).toBe(0);
    await context.close();
  });
});

/** Three common laptop screens and a phone held upright. */
const SCREENS: Record<string, BrowserContextOptions> = {
  '1280x800': { viewport: { width: 1280, height: 800 } },
  '1366x768': { viewport: { width: 1366, height: 768 } },
  '1440x900': { viewport: { width: 1440, height: 900 } },
  '390x844 phone': { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
};

/** The names a person finds the card's parts by, in the UI languages these journeys use. */
const NAMES = {
  'en-US': { card: 'Live transcription', start: 'Start', recording: 'Recording', timer: /^Recording time/, transcript: 'Transcript', notice: 'Cookie notice' },
  'pt-BR': { card: 'Transcrição ao vivo', start: 'Iniciar', recording: 'Gravando', timer: /^Tempo de gravação/, transcript: 'Transcrição', notice: 'Aviso de cookies' },
} as const;

/**
 * What a person sees at the newest line of the transcript (the last line box of its last shown
 * paragraph, the interim text while there is any): 'newest line' when that line is on the screen
 * and uncovered, else the name of what covers it, or 'off screen'. `ends`: that paragraph ends with `words`.
 */
const newestLine = (transcript: Locator, words: string) =>
  transcript.evaluate((el, words) => {
    const last = [...el.querySelectorAll('p')].filter((p) => !p.hidden).at(-1);
    if (!last) return { ends: false, at: 'no text' };
    const range = document.createRange();
    range.selectNodeContents(last);
    const lines = range.getClientRects();
    const line = lines[lines.length - 1]!;
    const hit = document.elementFromPoint(line.left + line.width / 2, line.top + line.height / 2);
    const at = !hit ? 'off screen' : last.contains(hit) ? 'newest line' : (hit.closest('[aria-label]')?.getAttribute('aria-label') ?? hit.tagName);
    return { ends: (last.textContent ?? '').endsWith(words), at };
  }, words);

/**
 * After Start: the status and the timer below the sticky header, in full view; then, as the
 * transcript grows from one line to more than it shows, and with interim words, its newest line
 * is on the screen and covered by nothing.
 */
async function checkRecordingView(page: Page, names: (typeof NAMES)[keyof typeof NAMES]) {
  const root = page.getByRole('region', { name: names.card });
  const s = speech(page);
  await s.waitStarted(1);
  const status = root.getByRole('status').first();
  await expect.poll(() => status.textContent()).toBe(names.recording);
  const header = (await page.getByRole('banner').boundingBox())!;
  for (const part of [status, root.getByLabel(names.timer)]) {
    expect((await part.boundingBox())!.y).toBeGreaterThanOrEqual(header.y + header.height);
    expect(await inViewport(page, part)).toBe(true);
    expect(await uncovered(part)).toBe(true);
  }
  const transcript = root.getByRole('region', { name: names.transcript });
  for (let i = 1; i <= 30; i++) {
    const words = `Sentence ${i} of a long talk about live captions.`;
    await s.final(words);
    if ([1, 5, 15, 30].includes(i)) await expect.poll(() => newestLine(transcript, words)).toEqual({ ends: true, at: 'newest line' });
  }
  await s.interim('and the words being spoken now');
  await expect.poll(() => newestLine(transcript, 'and the words being spoken now')).toEqual({ ends: true, at: 'newest line' });
}

describe('the first minutes on laptop and phone screens', () => {
  it.each([
    ['1280x800', 'en-US'],
    ['1366x768', 'en-US'],
    ['1440x900', 'en-US'],
    ['390x844 phone', 'en-US'],
    ['390x844 phone', 'pt-BR'],
  ] as const)('%s, %s visitor: Start on the first screen, then the status, the timer and the newest words in view, never under the cookie notice', async (screen, locale) => {
    const names = NAMES[locale];
    const context = await deviceContext(browser, { speech: true, cookiesAccepted: false }, { ...SCREENS[screen], locale });
    const page = await context.newPage();
    await page.goto('/');
    const start = page.getByRole('region', { name: names.card }).getByRole('button', { name: names.start, exact: true });
    await start.waitFor();
    await page.getByRole('region', { name: names.notice }).waitFor();
    // On the first screen as the page opens: nothing scrolled, nothing over it.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await inViewport(page, start)).toBe(true);
    expect(await uncovered(start)).toBe(true);
    await start.click();
    await checkRecordingView(page, names);
    await context.close();
  });

  it.each(['1366x768', '390x844 phone'])('%s, a signed-in free user: the status, the timer and the newest words in view with the counter and the share control above', async (screen) => {
    const account = await registerAccount(api, 'transcribe-screen');
    const context = await deviceContext(browser, { account, speech: true }, SCREENS[screen]);
    const page = await context.newPage();
    await page.goto('/');
    await dismissUpgradeModal(page);
    const start = card(page).button('Start');
    expect(await inViewport(page, start)).toBe(true);
    await start.click();
    await card(page).root.getByRole('button', { name: 'Share live' }).waitFor();
    await checkRecordingView(page, NAMES['en-US']);
    await context.close();
  });
});
