import type { CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { RECOVERY_CODE_COUNT } from '@app/shared/constants';
import { routeUrl } from '@app/shared/routes';
import { ACCOUNT_PASSWORD, mailsTo, newContext, registerAccount } from './browser.ts';
import { dismissUpgradeModal, logOut, openApi, openBrowser, submitLogin } from './journeys.ts';

/**
 * Passkeys in Chromium, with its virtual authenticator (DevTools protocol, WebAuthn domain): a
 * platform authenticator that keeps discoverable credentials and verifies the user by itself, so
 * every passkey prompt answers at once, as a person touching the sensor would.
 */
const browser = await openBrowser();
const api = await openApi();

async function addAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { cdp, authenticatorId };
}

const passkeys = (page: Page) => page.getByRole('region', { name: 'Passkeys' });

async function signedInAtHome(page: Page) {
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByRole('button', { name: 'Account menu' }).waitFor();
}

describe('passkeys', () => {
  it('add one on the profile, sign in with it, require it after the password, use a recovery code, remove it, delete the account with one', async () => {
    const account = await registerAccount(api, 'passkey');
    const context = await newContext(browser);
    const page = await context.newPage();
    const { cdp, authenticatorId } = await addAuthenticator(page);
    const main = page.getByRole('main');
    await page.goto('/login');
    await submitLogin(page, account.email, ACCOUNT_PASSWORD);
    await page.waitForURL((url) => url.pathname === '/');
    await dismissUpgradeModal(page);

    // Add a passkey on the profile (a sign-in minutes old: no password asked): the first brings ten recovery codes, shown once.
    await page.goto('/profile');
    const section = passkeys(page);
    await section.getByText('No passkeys yet.').waitFor();
    await section.getByLabel('Passkey name').fill('E2E laptop');
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    const codeList = section.getByRole('list', { name: 'Recovery codes' });
    await codeList.waitFor();
    const codes = await codeList.getByRole('listitem').allInnerTexts();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    await section.getByRole('button', { name: 'I saved my codes' }).click();
    await codeList.waitFor({ state: 'detached' });
    const list = section.getByRole('list', { name: 'Your passkeys' });
    await expect.poll(() => list.getByRole('listitem').allInnerTexts()).toEqual([expect.stringMatching(/E2E laptop[\s\S]*Never used/)]);
    await expect.poll(() => section.getByText(`${RECOVERY_CODE_COUNT} recovery codes left.`).isVisible()).toBe(true);
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toEqual([expect.objectContaining({ isResidentCredential: true, userHandle: Buffer.from(account.id).toString('base64') })]);
    await expect.poll(async () => (await mailsTo(account.email)).map((m) => m.subject)).toContain('A passkey was added to your account');

    // Sign out, then in with the passkey alone: no email, no password.
    await logOut(page);
    await page.goto('/login');
    await main.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await signedInAtHome(page);
    await page.goto('/profile');
    await expect.poll(() => list.getByRole('listitem').allInnerTexts()).toEqual([expect.stringMatching(/E2E laptop[\s\S]*Last used/)]);

    // Require a passkey after the password: the password alone no longer signs in.
    await section.getByRole('checkbox', { name: 'Require a passkey at sign-in' }).check();
    await expect.poll(() => page.getByText('Sign-in now asks for a passkey after the password').isVisible()).toBe(true);
    await logOut(page);
    await page.goto('/login');
    await submitLogin(page, account.email, ACCOUNT_PASSWORD);
    await main.getByRole('heading', { name: 'Confirm it is you' }).waitFor();
    expect(page.url()).toContain('/login');
    await main.getByRole('button', { name: 'Use my passkey' }).click();
    await signedInAtHome(page);

    // The passkey lost: a recovery code finishes the sign-in instead, once.
    await logOut(page);
    await page.goto('/login');
    await submitLogin(page, account.email, ACCOUNT_PASSWORD);
    await main.getByRole('button', { name: 'Lost your passkey? Use a recovery code' }).click();
    await main.getByLabel('Recovery code').fill(codes[0]!);
    await main.getByRole('button', { name: 'Sign in with the recovery code' }).click();
    await signedInAtHome(page);
    await page.goto('/profile');
    await expect.poll(() => section.getByText(`${RECOVERY_CODE_COUNT - 1} recovery codes left.`).isVisible()).toBe(true);

    // Remove it (after a confirmation): the requirement goes with the last passkey.
    await section.getByRole('button', { name: 'Remove passkey E2E laptop' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Remove the passkey E2E laptop?' });
    await dialog.getByRole('button', { name: 'Remove passkey' }).click();
    await section.getByText('No passkeys yet.').waitFor();
    expect(await section.getByRole('checkbox', { name: 'Require a passkey at sign-in' }).isChecked()).toBe(false);
    await expect.poll(async () => (await mailsTo(account.email)).map((m) => m.subject)).toContain('A passkey was removed from your account');

    // The authenticator still holds the credential, but the account no longer knows it.
    await logOut(page);
    await page.goto('/login');
    await main.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect.poll(() => main.getByRole('alert').filter({ hasText: 'This passkey could not sign you in' }).isVisible()).toBe(true);
    await submitLogin(page, account.email, ACCOUNT_PASSWORD);
    await signedInAtHome(page);

    // A new passkey confirms "Delete my account" instead of the password; the account is gone.
    await page.goto('/profile');
    await section.getByLabel('Passkey name').fill('E2E again');
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    await section.getByRole('button', { name: 'I saved my codes' }).click();
    await main.getByRole('button', { name: 'Delete my account' }).click();
    await page.getByRole('dialog', { name: 'Delete your account?' }).getByRole('button', { name: 'Confirm with a passkey instead' }).click();
    await expect.poll(() => page.getByText('Your account was deleted').isVisible()).toBe(true);
    expect((await api.post(routeUrl('login'), { data: { email: account.email, password: ACCOUNT_PASSWORD } })).status()).toBe(401);
    await context.close();
  });
});
