import type { APIRequestContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { routeUrl } from '@app/shared/routes';
import type { UiLanguage } from '../shared/src/constants.ts';
import { ACCOUNT_NAME, ACCOUNT_PASSWORD, registerAccount, uniqueEmail, type Account } from './browser.ts';
import { card, deviceContext, openApi, openBrowser, openCheckout, signUp, speech, startRecording } from './journeys.ts';

/**
 * The recognition language of a Pro user: until they choose one, their interface language's
 * locale (pt -> pt-BR, en -> en-US, es -> es-ES), following the interface as it changes; once
 * chosen in the profile, that choice, whatever the interface and on every device.
 */
const browser = await openBrowser();
const api = await openApi();

/** The account as the server answers it. */
async function me(request: APIRequestContext, account: Account) {
  const res = await request.get(routeUrl('getMe'), { headers: { authorization: `Bearer ${account.token}` } });
  return (await res.json()) as { language: string; transcriptionLang: string };
}

/** The card's recognition language buttons, named in the interface language. */
const COPY: Record<UiLanguage, { card: string; group: string; start: string }> = {
  en: { card: 'Live transcription', group: 'Recognition language', start: 'Start' },
  pt: { card: 'Transcrição ao vivo', group: 'Idioma de reconhecimento', start: 'Iniciar' },
  es: { card: 'Transcripción en vivo', group: 'Idioma de reconocimiento', start: 'Iniciar' },
};
const languageButton = (page: Page, ui: UiLanguage, name: string) =>
  page.getByRole('region', { name: COPY[ui].card }).getByRole('group', { name: COPY[ui].group }).getByRole('button', { name, exact: true });

describe('recognition language', () => {
  it('an English-interface user who upgrades through checkout records in English (United States)', async () => {
    const context = await deviceContext(browser, { speech: true });
    const page = await context.newPage();
    await signUp(page, { name: ACCOUNT_NAME, email: uniqueEmail('lang-en'), password: ACCOUNT_PASSWORD });
    // The upgrade modal a free user's first visit to home opens by itself: upgrade from it.
    await page.getByRole('dialog', { name: 'Upgrade to Pro' }).waitFor();
    await openCheckout(page);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL((url) => url.pathname === '/billing/success');
    await expect.poll(() => page.getByRole('main').getByText('Pro active').isVisible()).toBe(true);

    await page.goto('/');
    const c = card(page);
    // Pro: every language is offered, and English (United States) is the one selected.
    await expect.poll(() => c.language('Spanish (Spain)').getAttribute('aria-disabled')).toBeNull();
    expect(await c.language('English (United States)').getAttribute('aria-pressed')).toBe('true');
    expect(await c.language('Portuguese (Brazil)').getAttribute('aria-pressed')).toBe('false');
    await startRecording(page);
    expect((await speech(page).active())?.lang).toBe('en-US');
    await c.button('Stop').click();
    await c.statusIs('Stopped');

    // Any language Chrome recognizes, found by search: the recognizer gets its tag.
    await c.button('More languages').click();
    await c.root.getByRole('combobox', { name: 'Search languages' }).fill('日本');
    await c.root.getByRole('listbox', { name: 'Recognition languages' }).getByRole('option', { name: /Japanese \(Japan\)/ }).click();
    await expect.poll(() => c.language('Japanese (Japan)').getAttribute('aria-pressed')).toBe('true');
    await c.button('Start').click();
    await speech(page).waitStarted(2);
    expect((await speech(page).active())?.lang).toBe('ja-JP');
    await speech(page).final('今日は良い天気ですね。');
    await c.button('Stop').click();
    // 今日 は 良い 天気 です ね: six words, though no space separates them.
    await c.root.getByText('6 words', { exact: true }).waitFor();
    expect(await c.transcriptText()).toBe('今日は良い天気ですね。');
    await context.close();
  });

  it.each([
    { ui: 'pt', locale: 'pt-BR', name: 'Português (Brasil)', notName: 'Inglês (Estados Unidos)' },
    { ui: 'es', locale: 'es-ES', name: 'Español (España)', notName: 'Inglés (Estados Unidos)' },
  ] as const)('a user of the $ui interface who upgrades records in $locale', async ({ ui, locale, name, notName }) => {
    const account = await registerAccount(api, `lang-${ui}`, 'pro', ui);
    const context = await deviceContext(browser, { account, speech: true }, { locale });
    const page = await context.newPage();
    await page.goto('/');
    await expect.poll(() => languageButton(page, ui, name).getAttribute('aria-pressed')).toBe('true');
    expect(await languageButton(page, ui, notName).getAttribute('aria-pressed')).toBe('false');
    await page.getByRole('region', { name: COPY[ui].card }).getByRole('button', { name: COPY[ui].start, exact: true }).click();
    await speech(page).waitStarted(1);
    expect((await speech(page).active())?.lang).toBe(locale);
    await context.close();
  });

  it('with none chosen, it follows a switch of the interface language', async () => {
    const account = await registerAccount(api, 'lang-follows', 'pro');
    const context = await deviceContext(browser, { account });
    const page = await context.newPage();
    await page.goto('/');
    await expect.poll(() => languageButton(page, 'en', 'English (United States)').getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('contentinfo').getByRole('combobox', { name: 'Language' }).selectOption({ label: 'Español' });
    await expect.poll(() => me(api, account)).toMatchObject({ language: 'es', transcriptionLang: 'es-ES' });
    await expect.poll(() => languageButton(page, 'es', 'Español (España)').getAttribute('aria-pressed')).toBe('true');
    await context.close();
  });

  it('a choice made in the profile stays through a switch of the interface language, and on another device', async () => {
    const account = await registerAccount(api, 'lang-chosen', 'pro');
    const context = await deviceContext(browser, { account });
    const page = await context.newPage();
    await page.goto('/profile');
    const main = page.getByRole('main');
    const select = main.getByRole('combobox', { name: 'Default transcription language' });
    await expect.poll(() => select.inputValue()).toBe('en-US');
    // Portuguese (Brazil), the default every account once had, chosen on purpose.
    await select.selectOption({ label: 'Portuguese (Brazil)' });
    await page.getByText('Profile updated').waitFor();
    await main.getByRole('group', { name: 'Interface language' }).getByRole('button', { name: 'Español' }).click();
    await expect.poll(() => me(api, account)).toMatchObject({ language: 'es', transcriptionLang: 'pt-BR' });
    await page.goto('/');
    await expect.poll(() => languageButton(page, 'es', 'Portugués (Brasil)').getAttribute('aria-pressed')).toBe('true');
    await context.close();

    // A device the choice was never made on: the account's choice.
    const other = await deviceContext(browser, { account });
    const otherPage = await other.newPage();
    await otherPage.goto('/');
    await expect.poll(() => languageButton(otherPage, 'es', 'Portugués (Brasil)').getAttribute('aria-pressed')).toBe('true');
    await other.close();
  });
});
