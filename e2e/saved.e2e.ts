import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { FREE_AUTOMATIC_PER_MONTH } from '@app/shared/constants';
import { routeNamed, routeUrl } from '@app/shared/routes';
import { downloadedDocx, downloadedText, registerAccount, type Account } from './browser.ts';
import { deviceContext, openApi, openBrowser } from './journeys.ts';

/**
 * The transcription list pages against the real local server: a Pro user's saved transcriptions
 * (search, month and its placeholder, detail, export, Word, print, delete), the restricted page of a free user (no request),
 * and the automatic transcriptions list (status, month, search, delete).
 */
const browser = await openBrowser();
const api = await openApi();

/** A browser profile signed in as `account` (no survey pop-up). */
const signedIn = (account: Account) => deviceContext(browser, { account, cookiesAccepted: false });

const auth = (account: Account) => ({ authorization: `Bearer ${account.token}` });

/** The browser's own calendar month (YYYY-MM), as the page computes it. */
const browserMonth = (page: Page, deltaMonths = 0) =>
  page.evaluate((delta) => {
    const d = new Date();
    d.setDate(1);
    d.setMonth(d.getMonth() + delta);
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
  }, deltaMonths);

describe('saved transcriptions (/transcricoes)', () => {
  it('a Pro user finds a saved transcription by words (accent-insensitive) and month, exports it and deletes it', async () => {
    const pro = await registerAccount(api, 'saved-pro', 'pro');
    const meeting = 'Transcrição da reunião de orçamento. Decidimos revisar os custos até sexta-feira.';
    const saved = [
      { title: 'Aula de física', fullTranscript: 'Energia cinética e potencial gravitacional.', duration: 45 },
      {
        title: 'Reunião de orçamento',
        fullTranscript: meeting,
        duration: 125,
        language: 'pt-BR',
        segments: [
          { text: 'Transcrição da reunião de orçamento.', startMs: 0, endMs: 2500 },
          { text: 'Decidimos revisar os custos até sexta-feira.', startMs: 3000, endMs: 6000 },
        ],
      },
    ];
    for (const body of saved) {
      const res = await api.post(routeUrl('listTranscriptions'), { data: body, headers: auth(pro) });
      expect(res.status()).toBe(200);
    }

    const context = await signedIn(pro);
    const page = await context.newPage();
    const main = page.getByRole('main');
    await page.goto('/transcricoes');
    await main.getByRole('heading', { level: 1, name: 'Saved transcriptions' }).waitFor();
    const list = main.getByRole('list', { name: 'Saved transcriptions' });
    await list.waitFor();
    // Newest first, with the duration in minutes and seconds above 59.
    expect(await list.getByRole('heading').allTextContents()).toEqual(['Reunião de orçamento', 'Aula de física']);
    expect(await list.getByRole('listitem').first().textContent()).toContain('2 min 5 s');
    expect(await main.getByText('2 transcriptions', { exact: true }).isVisible()).toBe(true);

    // By words, without the accents.
    const filters = main.getByRole('search', { name: 'Filter transcriptions' });
    await filters.getByLabel('Search').fill('transcricao da reuniao');
    await filters.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => main.getByText('1 transcription', { exact: true }).isVisible()).toBe(true);
    expect(await list.getByRole('heading').allTextContents()).toEqual(['Reunião de orçamento']);

    // By month: this month has both, last month none.
    await filters.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
    await filters.getByLabel('Month').fill(await browserMonth(page, -1));
    await filters.getByRole('button', { name: 'Filter' }).click();
    await main.getByText('No transcriptions match these filters.').waitFor();
    await filters.getByLabel('Month').fill(await browserMonth(page));
    await filters.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);

    // The detail: full text, export, delete with a confirmation.
    await list.getByRole('button', { name: 'Reunião de orçamento' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reunião de orçamento' });
    const transcript = dialog.getByRole('region', { name: 'Transcript' });
    await transcript.waitFor();
    expect(await transcript.textContent()).toBe(meeting);
    // The direction comes from the transcript's language (left to right here), never guessed from its first letters.
    expect(await transcript.getAttribute('dir')).toBe('ltr');

    const [txt] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download TXT' }).click()]);
    expect(txt.suggestedFilename()).toBe('Reunião de orçamento.txt');
    expect(await downloadedText(txt)).toBe(`${meeting}\n`);
    const [srt] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download SRT' }).click()]);
    expect(srt.suggestedFilename()).toBe('Reunião de orçamento.srt');
    expect(await downloadedText(srt)).toContain('00:00:00,000 --> ');

    await dialog.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this transcription?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await confirm.waitFor({ state: 'detached' });
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => list.getByRole('heading').allTextContents()).toEqual(['Aula de física']);
    await page.getByText('Transcription deleted').waitFor();

    // The server agrees.
    const res = await context.request.get(routeUrl('listTranscriptions'), { headers: auth(pro) });
    const body = (await res.json()) as { transcriptions: { title: string }[] };
    expect(body.transcriptions.map((t) => t.title)).toEqual(['Aula de física']);
    await context.close();
  });

  it('a Pro user exports a right-to-left transcription to Word, whose code loads only then, and prints only its title, date and text', async () => {
    const pro = await registerAccount(api, 'saved-word', 'pro');
    // The dark theme: paper is black on white all the same.
    expect((await api.patch(routeUrl('updateMe'), { data: { theme: 'dark' }, headers: auth(pro) })).status()).toBe(200);
    const first = 'بدأ الاجتماع في التاسعة.';
    const firstNextLine = 'حضر الجميع.';
    // Long enough to run over several sheets of paper.
    const second = 'تمت الموافقة على الميزانية بعد نقاش طويل حول التكاليف والمواعيد. '.repeat(150).trim();
    const res = await api.post(routeUrl('listTranscriptions'), {
      data: { title: 'Weekly meeting', fullTranscript: `${first}\n${firstNextLine}\n\n${second}`, duration: 125, language: 'ar-SA' },
      headers: auth(pro),
    });
    expect(res.status()).toBe(200);
    const { createdAt } = (await res.json()) as { createdAt: string };

    const context = await signedIn(pro);
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    const docxChunk = () => requested.filter((path) => /\/assets\/transcript-docx-[\w-]+\.js$/.test(path));
    await page.goto('/transcricoes');
    await page.getByRole('main').getByRole('button', { name: 'Weekly meeting' }).click();
    const dialog = page.getByRole('dialog', { name: 'Weekly meeting' });
    const transcript = dialog.getByRole('region', { name: 'Transcript' });
    await transcript.waitFor();
    expect(await transcript.getAttribute('dir')).toBe('rtl');

    // Word: its builder (and the docx library) is fetched on the click, not before.
    await page.waitForLoadState('networkidle');
    expect(docxChunk()).toEqual([]);
    const [word] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download Word (.docx)' }).click()]);
    expect(docxChunk()).toHaveLength(1);
    expect(word.suggestedFilename()).toBe('Weekly meeting.docx');
    const date = await page.evaluate((iso) => new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso)), createdAt);
    const paragraphs = await downloadedDocx(word);
    expect(paragraphs.map((p) => p.text)).toEqual(['Weekly meeting', date, `${first}\n${firstNextLine}`, second]);
    // The text's paragraphs (every run of them) are right to left; the English title and the date are not.
    expect(paragraphs.map((p) => p.bidi)).toEqual([false, false, true, true]);
    expect(paragraphs.map((p) => p.rtlRuns === p.runs && p.runs > 0)).toEqual([false, false, true, true]);

    // Print: the browser's print, which the print stylesheet turns into the document alone.
    await page.evaluate(() => {
      window.print = () => document.documentElement.setAttribute('data-printed', 'true');
    });
    await dialog.getByRole('button', { name: 'Print' }).click();
    expect(await page.locator('html').getAttribute('data-printed')).toBe('true');
    // The open dialog hides the page from assistive technology (aria-hidden): the page's parts are found with it.
    const left = [
      page.getByRole('banner', { includeHidden: true }),
      page.getByRole('contentinfo', { includeHidden: true }),
      page.getByRole('main', { includeHidden: true }),
      dialog.getByRole('button', { name: 'Close' }),
      dialog.getByRole('button', { name: 'Download Word (.docx)' }),
      dialog.getByRole('button', { name: 'Print' }),
      dialog.getByRole('button', { name: 'Delete' }),
      dialog.getByText('2 min 5 s'),
    ];
    for (const part of left) expect(await part.isVisible(), String(part)).toBe(true);
    await page.emulateMedia({ media: 'print' });
    for (const part of left) expect(await part.isVisible(), String(part)).toBe(false);
    for (const shown of [dialog.getByRole('heading', { name: 'Weekly meeting' }), dialog.getByText(date, { exact: true }), transcript]) {
      expect(await shown.isVisible(), String(shown)).toBe(true);
    }
    const paper = await transcript.evaluate((region) => {
      const box = region.getBoundingClientRect();
      // The first line of right-to-left text ends at the region's right edge.
      const range = document.createRange();
      range.setStart(region.firstChild!, 0);
      range.setEnd(region.firstChild!, 1);
      const dialogElement = region.closest('[role="dialog"]')!;
      return {
        rightGap: box.right - range.getBoundingClientRect().right,
        leftGap: range.getBoundingClientRect().left - box.left,
        color: getComputedStyle(region).color,
        background: getComputedStyle(dialogElement).backgroundColor,
        page: getComputedStyle(document.documentElement).backgroundColor,
        position: getComputedStyle(dialogElement).position,
        clipped: region.scrollHeight > region.clientHeight + 1,
        text: region.textContent,
      };
    });
    expect(paper).toMatchObject({ color: 'rgb(0, 0, 0)', background: 'rgb(255, 255, 255)', page: 'rgb(255, 255, 255)', position: 'static', clipped: false });
    expect(paper.text).toBe(`${first}\n${firstNextLine}\n\n${second}`);
    expect(Math.abs(paper.rightGap)).toBeLessThan(2);
    expect(paper.leftGap).toBeGreaterThan(50);
    // The whole text flows over several sheets.
    const pdf = (await page.pdf()).toString('latin1');
    expect(pdf.match(/\/Type\s*\/Page\b/g)?.length).toBeGreaterThan(1);

    // Back on screen, the dialog is a dialog again.
    await page.emulateMedia({ media: 'screen' });
    expect(await dialog.getByRole('button', { name: 'Print' }).isVisible()).toBe(true);
    await context.close();
  });

  it('the month filter reads "Any month" in the UI language until a month is chosen, never as blank dashes', async () => {
    const pro = await registerAccount(api, 'saved-month', 'pro');
    for (const [language, label, placeholder] of [
      ['en', 'Month', 'Any month'],
      ['pt', 'Mês', 'Qualquer mês'],
    ] as const) {
      expect((await api.patch(routeUrl('updateMe'), { data: { language }, headers: auth(pro) })).status()).toBe(200);
      const context = await signedIn(pro);
      const page = await context.newPage();
      await page.goto('/transcricoes');
      const filters = page.getByRole('main').getByRole('search');
      const field = filters.getByLabel(label, { exact: true });
      const shown = filters.getByText(placeholder, { exact: true });
      await shown.waitFor();
      // The placeholder sits inside the field, and the field draws none of its blank month and year.
      // Both boxes read in one task: a banner loading above (the email verification's) moves both alike.
      const [fieldBox, shownBox] = await field.evaluate((el, other) => {
        const box = (e: Element) => { const r = e.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; };
        return [box(el), box(other!)];
      }, await shown.elementHandle());
      expect(shownBox.x).toBeGreaterThan(fieldBox.x);
      expect(shownBox.x + shownBox.width).toBeLessThan(fieldBox.x + fieldBox.width);
      expect(shownBox.y).toBeGreaterThanOrEqual(fieldBox.y);
      expect(shownBox.y + shownBox.height).toBeLessThanOrEqual(fieldBox.y + fieldBox.height);
      const textColor = () => field.evaluate((el) => getComputedStyle(el).color);
      expect(await textColor()).toBe('rgba(0, 0, 0, 0)');
      // Being edited, the field shows the browser's own month and year; a chosen month shows itself.
      await field.focus();
      await shown.waitFor({ state: 'hidden' });
      expect(await textColor()).not.toBe('rgba(0, 0, 0, 0)');
      await field.fill('2025-03');
      await field.blur();
      expect(await shown.count()).toBe(0);
      expect(await textColor()).not.toBe('rgba(0, 0, 0, 0)');
      await context.close();
    }
  });

  it('a Pro user edits a word with Ctrl+S; after a reload the edit is there and the SRT keeps its timing', async () => {
    const pro = await registerAccount(api, 'saved-edit', 'pro');
    const segments = [
      // Long pauses between them: each segment is a cue of its own.
      { text: 'Começamos a reunião às nove.', startMs: 0, endMs: 2500 },
      { text: 'O orçamento foi aprovado ontem.', startMs: 10_000, endMs: 13_000 },
      { text: 'Encerramos ao meio-dia.', startMs: 20_000, endMs: 22_500 },
    ];
    const fullTranscript = segments.map((s) => s.text).join(' ');
    const created = await api.post(routeUrl('saveTranscription'), {
      data: { title: 'Reunião', fullTranscript, duration: 23, language: 'pt-BR', segments },
      headers: auth(pro),
    });
    expect(created.status()).toBe(200);

    const context = await signedIn(pro);
    const page = await context.newPage();
    await page.goto('/transcricoes');
    await page.getByRole('main').getByRole('button', { name: 'Reunião' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reunião' });
    await dialog.getByRole('region', { name: 'Transcript' }).waitFor();
    await dialog.getByRole('button', { name: 'Edit' }).click();
    const text = dialog.getByRole('textbox', { name: 'Transcript text' });
    expect(await text.inputValue()).toBe(fullTranscript);
    // Select the word "ontem" and type over it, as a user would.
    const at = fullTranscript.indexOf('ontem');
    await text.evaluate((el: HTMLTextAreaElement, [from, to]) => el.setSelectionRange(from, to), [at, at + 'ontem'.length] as const);
    await text.focus();
    await page.keyboard.type('hoje');
    await dialog.getByText('Unsaved changes', { exact: false }).waitFor();
    // The browser's Back asks first; keeping the edit stays on the page with the text as typed.
    await page.goBack();
    const askBack = page.getByRole('alertdialog', { name: 'Discard your changes?' });
    await askBack.getByRole('button', { name: 'Keep editing' }).click();
    await askBack.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/transcricoes');
    expect(await text.inputValue()).toBe(fullTranscript.replace('ontem', 'hoje'));
    await text.focus();
    await page.keyboard.press('ControlOrMeta+s');
    await page.getByText('Changes saved').waitFor();
    const edited = fullTranscript.replace('ontem', 'hoje');
    expect(await dialog.getByRole('region', { name: 'Transcript' }).textContent()).toBe(edited);

    await page.reload();
    await page.getByRole('main').getByRole('button', { name: 'Reunião' }).click();
    const reopened = page.getByRole('dialog', { name: 'Reunião' });
    const transcript = reopened.getByRole('region', { name: 'Transcript' });
    await transcript.waitFor();
    expect(await transcript.textContent()).toBe(edited);
    const [srt] = await Promise.all([page.waitForEvent('download'), reopened.getByRole('button', { name: 'Download SRT' }).click()]);
    // Every cue's times in order, and the edited words still in the cue of their segment's time.
    const cues = (await downloadedText(srt)).trim().split(/\n\n+/).map((block) => {
      const [, times = '', ...lines] = block.split('\n');
      const [start = '', end = ''] = times.split(' --> ');
      return { start, end, text: lines.join(' ') };
    });
    expect(cues).toHaveLength(3);
    for (const [i, cue] of cues.entries()) {
      expect(cue.start <= cue.end).toBe(true);
      if (i) expect(cues[i - 1]!.start <= cue.start).toBe(true);
    }
    expect(cues[1]).toEqual({ start: '00:00:10,000', end: '00:00:13,000', text: 'O orçamento foi aprovado hoje.' });
    expect(cues[2]).toEqual({ start: '00:00:20,000', end: '00:00:22,500', text: 'Encerramos ao meio-dia.' });
    expect(cues.some((c) => c.text.includes('ontem'))).toBe(false);

    // Back again while editing, this time discarding: the page goes back to where the user came from.
    await page.goto('/');
    await page.goto('/transcricoes');
    await page.getByRole('main').getByRole('button', { name: 'Reunião' }).click();
    const again = page.getByRole('dialog', { name: 'Reunião' });
    await again.getByRole('button', { name: 'Edit' }).click();
    await again.getByRole('textbox', { name: 'Transcript text' }).fill('Texto que não será salvo.');
    await page.goBack();
    await page.getByRole('alertdialog', { name: 'Discard your changes?' }).getByRole('button', { name: 'Discard' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });

  it('a free user sees the restricted-access banner and no request for the list is made', async () => {
    const free = await registerAccount(api, 'saved-free');
    const context = await signedIn(free);
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));

    await page.goto('/transcricoes');
    const main = page.getByRole('main');
    await main.getByRole('heading', { name: 'Saved transcriptions are a Pro feature' }).waitFor();
    expect(await main.getByText('Only Pro users can access saved transcriptions.').isVisible()).toBe(true);
    expect(await main.getByRole('link', { name: 'See plans' }).getAttribute('href')).toBe('/pricing');
    await page.waitForLoadState('networkidle');
    expect(requested).toContain(routeUrl('getMe'));
    expect(requested.filter((path) => ['listTranscriptions', 'getTranscription'].includes(routeNamed('GET', path) ?? ''))).toEqual([]);

    // The upgrade button opens the upgrade modal.
    await main.getByRole('button', { name: 'Upgrade to Pro' }).click();
    await page.getByRole('dialog', { name: 'Upgrade to Pro' }).waitFor();
    await context.close();
  });
});

describe('automatic transcriptions (/transcricoes-automaticas)', () => {
  it('lists sessions in progress and finished, filters them, and deletes one', async () => {
    const free = await registerAccount(api, 'automatic');
    const session = async (text: string) => {
      const { sessionId } = (await (await api.get(routeUrl('autosaveSessionId'), { headers: auth(free) })).json()) as {
        sessionId: string;
      };
      const res = await api.post(routeUrl('autosaveSave'), {
        headers: auth(free),
        data: { sessionId, offset: 0, text, segments: [], duration: 65, language: 'pt-BR' },
      });
      expect(res.status()).toBe(200);
      return sessionId;
    };
    const complete = async (sessionId: string) => {
      const res = await api.post(routeUrl('autosaveComplete'), { headers: auth(free), data: { sessionId } });
      expect(res.status()).toBe(200);
    };
    const physics = await session('Primeira sessão sobre física quântica');
    const chemistry = await session('Segunda sessão sobre química orgânica');
    await complete(chemistry);

    const context = await signedIn(free);
    const page = await context.newPage();
    const main = page.getByRole('main');
    await page.goto('/transcricoes-automaticas');
    await main.getByRole('heading', { level: 1, name: 'My recordings' }).waitFor();
    const list = main.getByRole('list', { name: 'My recordings' });
    const item = (text: string) => list.getByRole('listitem').filter({ hasText: text });
    await item('física quântica').waitFor();
    expect(await item('física quântica').textContent()).toContain('In progress');
    expect(await item('física quântica').textContent()).toContain('01:05');
    expect(await item('química orgânica').textContent()).toContain('Finished');
    await main.getByText(`2 of ${FREE_AUTOMATIC_PER_MONTH} recordings kept this month`).waitFor();

    // Completion filter.
    const status = main.getByRole('group', { name: 'Status' });
    await status.getByRole('button', { name: 'In progress' }).click();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    expect(await item('física quântica').count()).toBe(1);
    await status.getByRole('button', { name: 'Finished' }).click();
    await expect.poll(() => item('química orgânica').count()).toBe(1);
    expect(await list.getByRole('listitem').count()).toBe(1);

    // Finished after complete.
    await complete(physics);
    await page.reload();
    await item('física quântica').waitFor();
    expect(await item('física quântica').textContent()).toContain('Finished');
    expect(await item('química orgânica').textContent()).toContain('Finished');

    // The month dropdown offers the months of the loaded items.
    const month = main.getByRole('combobox', { name: 'Month' });
    const current = await browserMonth(page);
    expect(await month.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual(['', current]);
    await month.selectOption(current);
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);

    // Accent-insensitive search.
    await main.getByRole('searchbox', { name: 'Search' }).fill('fisica');
    await main.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    expect(await item('física quântica').count()).toBe(1);

    // Detail and delete with a confirmation.
    await item('física quântica').getByRole('button', { name: /^Open the transcription of/ }).click();
    const dialog = page.getByRole('dialog', { name: /^Transcription of/ });
    expect(await dialog.getByRole('region', { name: 'Transcript' }).textContent()).toBe('Primeira sessão sobre física quântica');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Delete this recording?' }).getByRole('button', { name: 'Delete' }).click();
    await dialog.waitFor({ state: 'detached' });
    await main.getByText('No recordings match these filters.').waitFor();
    await main.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    expect(await item('química orgânica').count()).toBe(1);
    await context.close();
  });
});
