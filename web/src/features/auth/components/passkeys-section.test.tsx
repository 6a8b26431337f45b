import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch, renderPage, type MockCall } from '../../../test/render';
import PasskeysSection from './passkeys-section';

const laptop = { id: 'a'.repeat(43), name: 'Laptop', createdAt: '2026-01-02T10:00:00.000Z', lastUsedAt: null, backedUp: true };
const phone = { id: 'b'.repeat(43), name: 'Phone', createdAt: '2026-01-03T10:00:00.000Z', lastUsedAt: '2026-02-01T10:00:00.000Z', backedUp: false };

/** A fake of the passkey routes: the list, and each change as the server answers it. */
function fakeServer({ reauthFirst = false } = {}) {
  let list = { passkeys: [laptop, phone], recoveryCodesLeft: 7, required: false };
  let asked = false;
  const calls = mockFetch((call: MockCall) => {
    const body = call.body as { required?: boolean; currentPassword?: string };
    switch (call.route) {
      case 'listPasskeys':
        return json(200, list);
      case 'removePasskey':
        list = { ...list, passkeys: list.passkeys.filter((p) => p.id !== call.params.id) };
        return json(200, { ok: true });
      case 'setPasskeyRequirement':
        if (reauthFirst && !asked) {
          asked = true;
          return json(403, { error: 'Enter your password to continue.', code: 'reauth_required' });
        }
        list = { ...list, required: body.required! };
        return json(200, { required: body.required });
      case 'createRecoveryCodes':
        list = { ...list, recoveryCodesLeft: 10 };
        return json(200, { recoveryCodes: Array.from({ length: 10 }, (_, i) => `CODE-${i}`) });
      default:
        return json(404, { error: 'Not found' });
    }
  });
  return calls;
}

/** The changes sent (every passkey call but the list's reads): route, path parameters and body. */
const changes = (calls: MockCall[]) => calls.filter((c) => c.route !== 'listPasskeys').map(({ route, method, params, body }) => ({ route, method, params, body }));

describe('profile: Passkeys section', () => {
  it('lists each passkey with when it was added and last used, and how many recovery codes are left', async () => {
    fakeServer();
    renderPage(<PasskeysSection />, { path: '/profile' });
    const list = await screen.findByRole('list', { name: 'Your passkeys' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(first).toHaveTextContent('Laptop');
    expect(first).toHaveTextContent('Added January 2, 2026 · Never used');
    expect(second).toHaveTextContent('Last used February 1, 2026');
    expect(screen.getByText('7 recovery codes left.')).toBeInTheDocument();
    // jsdom has no WebAuthn: adding is explained, not offered.
    expect(screen.getByText(/This browser cannot use passkeys/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add a passkey' })).toBeNull();
  });

  it('removes a passkey after a confirmation', async () => {
    const calls = fakeServer();
    renderPage(<PasskeysSection />, { path: '/profile' });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Remove passkey Phone' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove the passkey Phone?' });
    await ui.click(within(dialog).getByRole('button', { name: 'Remove passkey' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Remove passkey Phone' })).toBeNull());
    expect(changes(calls)).toEqual([{ route: 'removePasskey', method: 'DELETE', params: { id: phone.id }, body: undefined }]);
    expect(screen.getByRole('button', { name: 'Remove passkey Laptop' })).toBeInTheDocument();
  });

  it('after an older sign-in asks for the password, then sends it with the change; new codes are shown once', async () => {
    const calls = fakeServer({ reauthFirst: true });
    renderPage(<PasskeysSection />, { path: '/profile' });
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('checkbox', { name: 'Require a passkey at sign-in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter your password to continue.');
    await ui.type(screen.getByLabelText('Current password'), 'my-password');
    await ui.click(screen.getByRole('checkbox', { name: 'Require a passkey at sign-in' }));
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Require a passkey at sign-in' })).toBeChecked());
    expect(changes(calls)).toEqual([
      { route: 'setPasskeyRequirement', method: 'PUT', params: {}, body: { required: true } },
      { route: 'setPasskeyRequirement', method: 'PUT', params: {}, body: { required: true, currentPassword: 'my-password' } },
    ]);

    await ui.click(screen.getByRole('button', { name: 'Make new recovery codes' }));
    const codes = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(changes(calls).at(-1)).toEqual({ route: 'createRecoveryCodes', method: 'POST', params: {}, body: {} });
    expect(within(codes).getAllByRole('listitem')).toHaveLength(10);
    await ui.click(screen.getByRole('button', { name: 'I saved my codes' }));
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
    expect(await screen.findByText('10 recovery codes left.')).toBeInTheDocument();
  });
});
