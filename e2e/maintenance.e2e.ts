import { describe, expect, inject, it } from 'vitest';
import { runOps } from '../functions/src/ops/ops.ts';
import { newContext } from './browser.ts';
import { openBrowser } from './journeys.ts';

/**
 * The maintenance gate and dev mode, set with the operators' own command. Maintenance closes the
 * whole site, so this file runs alone, after every other journey (vitest.config.ts).
 */
const target = () => ({ table: inject('tableName'), endpoint: inject('dynamoEndpoint') });

const browser = await openBrowser();

describe('maintenance mode', () => {
  it('shows the maintenance page; the dev password bypasses it; exit returns to it', async () => {
    await runOps(['dev-password', '--password', 'e2e-dev-password'], target());
    await runOps(['maintenance', 'on'], target());
    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      await page.goto('/help');
      await page.getByRole('heading', { level: 1, name: "We'll be back soon" }).waitFor();
      expect(await page.getByRole('banner').count()).toBe(0);

      await page.getByRole('button', { name: 'Dev Mode' }).click();
      const dialog = page.getByRole('dialog', { name: 'Developer access' });
      const password = dialog.getByLabel('Password', { exact: true });
      await dialog.getByRole('button', { name: 'Enter' }).click();
      await dialog.getByText('Please enter a password').waitFor();
      await password.fill('not-the-password');
      await dialog.getByRole('button', { name: 'Enter' }).click();
      await dialog.getByText('Incorrect password').waitFor();
      await password.fill('e2e-dev-password');
      await dialog.getByRole('button', { name: 'Enter' }).click();

      // In: the app with the DEV MODE badge, on this device across reloads.
      const banner = page.getByRole('banner');
      await banner.getByText('DEV MODE').waitFor();
      await page.getByRole('heading', { level: 1, name: 'Help center' }).waitFor();
      await page.reload();
      await banner.getByText('DEV MODE').waitFor();
      expect(await page.evaluate(() => localStorage.getItem('devMode'))).toBe('true');

      // Exit: the flag is cleared and the gate checks again.
      await banner.getByRole('button', { name: 'Exit dev mode' }).click();
      await page.getByRole('heading', { level: 1, name: "We'll be back soon" }).waitFor();
      expect(await page.evaluate(() => localStorage.getItem('devMode'))).toBeNull();

      // Maintenance over: Try again lets everyone in, without a reload.
      await runOps(['maintenance', 'off'], target());
      await page.getByRole('button', { name: 'Try again' }).click();
      await page.getByRole('heading', { level: 1, name: 'Help center' }).waitFor();
      expect(await banner.getByText('DEV MODE').count()).toBe(0);
    } finally {
      await runOps(['maintenance', 'off'], target());
      await context.close();
    }
  });
});
