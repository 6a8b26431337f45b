import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { registerAccount, type Account } from './browser.ts';
import { deviceContext, openApi, openBrowser } from './journeys.ts';

/**
 * The signed-in menu, as a screen reader hears it: each link named by what is there (record,
 * your recordings, saved transcriptions), the Pro-only page tagged Pro for a user without Pro, in
 * the header and in the phone's menu, in every interface language; each page's heading matches.
 */
const browser = await openBrowser();
const api = await openApi();

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;

/** The links of a navigation, in order, by their accessible names and addresses. */
async function expectLinks(nav: Locator, links: [name: string, href: string][]) {
  const items = nav.getByRole('listitem');
  for (const [i, [name, href]] of links.entries()) {
    expect(await items.nth(i).getByRole('link', { name, exact: true }).getAttribute('href'), name).toBe(href);
  }
}

async function open(account: Account, options: { locale?: string; phone?: boolean } = {}): Promise<Page> {
  const context = await deviceContext(browser, { account }, { locale: options.locale ?? 'en-US', ...(options.phone ? PHONE : {}) });
  const page = await context.newPage();
  await page.goto('/help');
  return page;
}

describe('signed-in menu', () => {
  it("a free user's header: Transcribe, My recordings, Saved tagged Pro, Help; each leads to the page it names", async () => {
    const page = await open(await registerAccount(api, 'menu-free'));
    const nav = page.getByRole('banner').getByRole('navigation', { name: 'Main' });
    await nav.waitFor();
    await expectLinks(nav, [
      ['Transcribe', '/'],
      ['My recordings', '/transcricoes-automaticas'],
      ['Saved (Pro)', '/transcricoes'],
      ['Help', '/help'],
    ]);
    expect(await nav.getByRole('link', { name: 'Saved (Pro)' }).innerText()).toMatch(/^Saved\s*PRO$/);

    const main = page.getByRole('main');
    await nav.getByRole('link', { name: 'My recordings' }).click();
    await main.getByRole('heading', { level: 1, name: 'My recordings' }).waitFor();
    expect(await page.title()).toBe('My recordings · Live Transcribe');
    await main.getByText('No recordings yet.').waitFor();
    await nav.getByRole('link', { name: 'Saved (Pro)' }).click();
    await main.getByRole('heading', { level: 1, name: 'Saved transcriptions are a Pro feature' }).waitFor();
    await page.context().close();
  });

  it("a Pro user's header names the saved transcriptions without the tag; the page's heading matches", async () => {
    const page = await open(await registerAccount(api, 'menu-pro', 'pro'));
    const nav = page.getByRole('banner').getByRole('navigation', { name: 'Main' });
    await nav.waitFor();
    await expectLinks(nav, [
      ['Transcribe', '/'],
      ['My recordings', '/transcricoes-automaticas'],
      ['Saved', '/transcricoes'],
      ['Help', '/help'],
    ]);
    expect(await nav.getByText('PRO').count()).toBe(0);
    await nav.getByRole('link', { name: 'Saved' }).click();
    await page.getByRole('main').getByRole('heading', { level: 1, name: 'Saved transcriptions' }).waitFor();
    expect(await page.title()).toBe('Saved transcriptions · Live Transcribe');
    await page.context().close();
  });

  it.each([
    ['pt', 'pt-BR', 'Menu', 'Menu móvel', ['Transcrever', 'Minhas gravações', 'Salvas (Pro)', 'Ajuda', 'Conta'], 'Minhas gravações'],
    ['es', 'es-ES', 'Menú', 'Menú móvil', ['Transcribir', 'Mis grabaciones', 'Guardadas (Pro)', 'Ayuda', 'Cuenta'], 'Mis grabaciones'],
    ['en', 'en-US', 'Menu', 'Mobile menu', ['Transcribe', 'My recordings', 'Saved (Pro)', 'Help', 'Account'], 'My recordings'],
  ] as const)('%s, on a phone: the menu names the same pages, and My recordings leads to its page', async (language, locale, menu, navName, names, heading) => {
    const page = await open(await registerAccount(api, `menu-${language}`, 'free', language), { locale, phone: true });
    await page.getByRole('banner').getByRole('button', { name: menu, exact: true }).click();
    const nav = page.getByRole('dialog', { name: menu }).getByRole('navigation', { name: navName });
    const hrefs = ['/', '/transcricoes-automaticas', '/transcricoes', '/help', '/profile'];
    await expectLinks(nav, names.map((name, i) => [name, hrefs[i]!]));
    await nav.getByRole('link', { name: names[1] }).click();
    await page.getByRole('main').getByRole('heading', { level: 1, name: heading }).waitFor();
    await page.context().close();
  });
});
