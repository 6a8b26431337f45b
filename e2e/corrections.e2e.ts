import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { routeUrl } from '@app/shared/routes';
import { downloadedText, registerAccount, type Account } from './browser.ts';
import { card, deviceContext, openApi, openBrowser, speech, startRecording, visibleText } from './journeys.ts';

/**
 * Text corrections end to end: a Pro speaker saves a replacement list and turns the profanity mask
 * on in the profile; the scripted recognizer then says a replaced phrase and a profane word, and
 * the live view, the interim text, the live share's viewer, the TXT export and the automatic
 * transcription the server keeps all carry the corrected text.
 */
const browser = await openBrowser();
const api = await openApi();

/** The user's automatic transcriptions' text, as the server has it. */
async function serverTexts(account: Account): Promise<string[]> {
  const headers = { authorization: `Bearer ${account.token}` };
  const list = (await (await api.get(routeUrl('listAutomaticTranscriptions'), { headers })).json()) as { transcriptions: { _id: string }[] };
  return Promise.all(
    list.transcriptions.map(
      async ({ _id }) => ((await (await api.get(routeUrl('getAutomaticTranscription', { id: _id }), { headers })).json()) as { fullTranscript: string }).fullTranscript,
    ),
  );
}

const captionText = (page: Page) => page.getByRole('region', { name: 'Captions' }).locator('p:last-child').textContent();

describe('text corrections', () => {
  it('a saved replacement list and the mask apply to the live view, a live share, the TXT export and the saved text', async () => {
    const pro = await registerAccount(api, 'corrections', 'pro');
    const context = await deviceContext(browser, { account: pro, speech: true });
    const page = await context.newPage();

    await page.goto('/profile');
    const section = page.getByRole('region', { name: 'Corrections' });
    await section.getByRole('button', { name: 'Add a replacement' }).click();
    await section.getByRole('textbox', { name: 'Phrase 1' }).fill('gonna');
    await section.getByRole('textbox', { name: 'Replacement 1' }).fill('going to');
    await section.getByRole('combobox', { name: 'Profanity in my transcript' }).selectOption('mask');
    await section.getByRole('button', { name: 'Save corrections' }).click();
    await page.getByText('Corrections saved').waitFor();

    await page.goto('/');
    const c = card(page);
    const s = speech(page);
    await startRecording(page);
    await s.interim('we are gonna win this');
    await expect.poll(() => c.transcript.locator('[data-interim]').textContent()).toBe('we are going to win this');
    await s.final('we are gonna win this shit');
    let said = 'we are going to win this s***';
    await expect.poll(() => c.transcriptText()).toBe(said);

    await c.root.getByRole('checkbox', { name: 'Also show what was said before sharing' }).check();
    await c.root.getByRole('button', { name: 'Share live', exact: true }).click();
    const link = await c.root.getByRole('region', { name: 'Live captions link' }).getByRole('textbox', { name: 'Live link' }).inputValue();
    const viewerContext = await deviceContext(browser, {});
    const viewer = await viewerContext.newPage();
    await viewer.goto(link);
    await expect.poll(() => captionText(viewer)).toBe(said);

    // More than the default paragraph silence (2 s) since the last words: a new paragraph.
    await page.waitForTimeout(2_100);
    await s.final('Gonna be fine');
    said += '\n\ngoing to be fine';
    const paragraphs = c.transcript.locator('p:not([hidden])');
    await expect.poll(() => paragraphs.allTextContents()).toEqual(['we are going to win this s***', 'going to be fine']);
    await expect.poll(() => captionText(viewer)).toBe(said);
    expect(await visibleText(c.transcript)).not.toMatch(/gonna|shit/i);

    await c.button('Stop').click();
    await c.statusIs('Stopped');
    const [txt] = await Promise.all([page.waitForEvent('download'), c.button('Download TXT').click()]);
    expect(await downloadedText(txt)).toBe(`${said}\n`);
    await expect.poll(() => serverTexts(pro)).toEqual([said]);

    await Promise.all([context.close(), viewerContext.close()]);
  }, 90_000);
});
