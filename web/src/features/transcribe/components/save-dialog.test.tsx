import { TITLE_MAX } from '@app/shared/constants';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage } from '../../../test/render';
import SaveDialog from './save-dialog';

const input = () => ({ text: 'hello world', segments: [{ text: 'hello world', startMs: 0, endMs: 900 }], durationMs: 900, language: 'en-US' as const, startedAt: new Date('2026-01-01T10:00:00Z') });

function renderDialog() {
  const onSaved = vi.fn();
  const onOpenChange = vi.fn();
  renderPage(<SaveDialog open onOpenChange={onOpenChange} getInput={input} onSaved={onSaved} />);
  return { onSaved, onOpenChange };
}

describe('save dialog', () => {
  it('a failed save shows the error in the form and raises the save error toast; the dialog stays open', async () => {
    mockFetch(() => json(500, { error: 'Something went wrong on our side. Please try again.', code: 'server_error' }));
    const { onSaved, onOpenChange } = renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Save transcription' });
    const ui = userEvent.setup();
    await ui.type(within(dialog).getByRole('textbox', { name: /Title/ }), 'Lecture');
    await ui.click(within(dialog).getByRole('button', { name: 'Save' }));
    const toastTitle = await screen.findByText('Save error', { selector: '[data-title]' });
    expect(toastTitle.closest('[data-type]')).toHaveAttribute('data-type', 'error');
    expect(within(dialog).getAllByText('Something went wrong on our side. Please try again.').length).toBeGreaterThan(0);
    expect(onSaved).not.toHaveBeenCalled();
    expect(onOpenChange).not.toHaveBeenCalledWith(false);
  });

  it('a successful save toasts success and closes', async () => {
    mockFetch(() => json(200, { id: '01J0000000000000000000000', title: 'Lecture', subject: null, createdAt: '2026-01-01T10:00:00.000Z', duration: 1, preview: 'hello world', language: 'en-US' }));
    const { onSaved, onOpenChange } = renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Save transcription' });
    const ui = userEvent.setup();
    await ui.type(within(dialog).getByRole('textbox', { name: /Title/ }), 'Lecture');
    await ui.click(within(dialog).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(screen.queryByText('Save error')).not.toBeInTheDocument();
  });

  it('checks the title with the shared rule on save, then again as an invalid title is edited; nothing is sent while it is invalid', async () => {
    const calls = mockFetch(() => json(500, {}));
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Save transcription' });
    const title = within(dialog).getByRole('textbox', { name: /Title/ });
    const ui = userEvent.setup();
    await ui.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(title).toHaveAttribute('aria-invalid', 'true'));
    expect(title).toHaveAccessibleDescription('Enter a title.');

    await ui.click(title);
    await ui.paste('x'.repeat(TITLE_MAX + 1));
    await waitFor(() => expect(title).toHaveAccessibleDescription(`The title can have at most ${TITLE_MAX} characters.`));
    await ui.keyboard('{Backspace}');
    await waitFor(() => expect(title).not.toHaveAttribute('aria-invalid'));
    expect(title).not.toHaveAccessibleDescription();
    expect(calls).toHaveLength(0);
  });
});
