import { CAPTION_STORAGE_KEYS, DEFAULT_CAPTION_STYLE, type CaptionStyle } from '@app/shared/caption-style';
import { STORAGE_KEYS } from '@app/shared/constants';
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { LEGACY_CAPTION_KEYS, readDeviceCaptionStyle } from '../../../lib/caption-style';
import { json, mockFetch, renderPage, type MockCall } from '../../../test/render';
import ProfilePage from './profile-page';

const user = {
  id: 'u1', name: 'Ana', email: 'ana@example.com', language: 'en', theme: 'light',
  transcriptionLang: 'en-US', plan: 'free', planExpiry: null, createdAt: '2025-01-01T00:00:00.000Z',
};

/** GET /api/auth/me and GET/PUT /api/me/caption-style; `refuse` answers the PUT with that 400 message. */
function fakeServer(initial: CaptionStyle | null = null, refuse?: string) {
  let saved = initial;
  return mockFetch((call: MockCall) => {
    if (call.route === 'getMe') return json(200, user);
    if (call.route === 'getCaptionStyle') return json(200, { style: saved });
    if (call.route === 'putCaptionStyle') {
      if (refuse) return json(400, { error: refuse });
      saved = call.body as CaptionStyle;
      return json(200, { style: saved });
    }
    return json(404, { error: 'Not found' });
  });
}

const section = async () => within(await screen.findByRole('region', { name: 'Caption style' }));

beforeEach(() => {
  for (const key of [CAPTION_STORAGE_KEYS.style, LEGACY_CAPTION_KEYS.size, LEGACY_CAPTION_KEYS.theme]) window.localStorage.removeItem(key);
  window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
});

describe('profile: caption style', () => {
  it('edits font, colours and position with a live preview, flags a low contrast, and saves the style whole to the account', async () => {
    const calls = fakeServer();
    renderPage(<ProfilePage />, { path: '/profile' });
    const ui = userEvent.setup();
    await ui.click((await section()).getByRole('button', { name: 'Edit caption style' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Caption style' }));
    const preview = () => dialog.getByTestId('caption-preview');

    await ui.selectOptions(dialog.getByRole('combobox', { name: 'Font' }), 'OpenDyslexic');
    await ui.selectOptions(dialog.getByRole('combobox', { name: 'Position' }), 'Lower third');
    await ui.click(dialog.getByRole('button', { name: 'Black on yellow' }));
    expect(dialog.getByRole('button', { name: 'Black on yellow' })).toHaveAttribute('aria-pressed', 'true');
    expect(preview().style.fontFamily).toMatch(/^OpenDyslexic/);
    expect(preview().style.color).toBe('rgb(0, 0, 0)');
    expect(preview().style.gridRow).toBe('2');
    expect(dialog.getByRole('status')).toHaveTextContent('Contrast 15.9:1');
    expect(dialog.queryByText(/Low contrast/)).toBeNull();

    // A grey on white: under 4.5:1 (jsdom has no colour picker: the value is set as a picker does).
    await ui.click(dialog.getByRole('button', { name: 'Black on white' }));
    fireEvent.change(dialog.getByLabelText('Text colour'), { target: { value: '#999999' } });
    expect(await dialog.findByText(/Low contrast: under 4.5:1/)).toBeInTheDocument();
    expect(dialog.getByRole('status')).toHaveTextContent('Contrast 2.8:1');
    await ui.click(dialog.getByRole('button', { name: 'Yellow on black' }));
    expect(dialog.queryByText(/Low contrast/)).toBeNull();

    await ui.click(dialog.getByRole('button', { name: 'Save style' }));
    expect(await screen.findByText('Caption style saved.')).toBeInTheDocument();
    expect(calls.find((c) => c.route === 'putCaptionStyle')?.body).toEqual({
      ...DEFAULT_CAPTION_STYLE,
      font: 'opendyslexic',
      position: 'lowerThird',
      color: '#fde047',
      background: '#000000',
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect((await section()).getByTestId('profile-caption-style').style.fontFamily).toMatch(/^OpenDyslexic/);
  });

  it('keeps the dialog and what was chosen when the server refuses the style', async () => {
    fakeServer(null, 'The size is at most 160 px');
    renderPage(<ProfilePage />, { path: '/profile' });
    const ui = userEvent.setup();
    await ui.click((await section()).getByRole('button', { name: 'Edit caption style' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Caption style' }));
    await ui.selectOptions(dialog.getByRole('combobox', { name: 'Font' }), 'Serif');
    await ui.click(dialog.getByRole('button', { name: 'Save style' }));
    expect(await screen.findByText('The size is at most 160 px')).toBeInTheDocument();
    expect(dialog.getByRole('combobox', { name: 'Font' })).toHaveDisplayValue('Serif');
  });

  it("carries caption mode's old size and colours over while the account has no style", async () => {
    window.localStorage.setItem(LEGACY_CAPTION_KEYS.size, '76');
    window.localStorage.setItem(LEGACY_CAPTION_KEYS.theme, 'light');
    expect(readDeviceCaptionStyle()).toEqual({ ...DEFAULT_CAPTION_STYLE, size: 76, color: '#000000', background: '#ffffff' });
    const calls = fakeServer();
    renderPage(<ProfilePage />, { path: '/profile' });
    const ui = userEvent.setup();
    await ui.click((await section()).getByRole('button', { name: 'Edit caption style' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Caption style' }));
    expect(dialog.getByRole('button', { name: 'Black on white' })).toHaveAttribute('aria-pressed', 'true');
    await ui.click(dialog.getByRole('button', { name: 'Save style' }));
    await screen.findByText('Caption style saved.');
    expect(calls.find((c) => c.route === 'putCaptionStyle')?.body).toMatchObject({ size: 76, color: '#000000', background: '#ffffff' });
    // An unreadable stored style falls back the same way.
    window.localStorage.setItem(CAPTION_STORAGE_KEYS.style, '{"font":"comic"}');
    expect(readDeviceCaptionStyle().size).toBe(76);
  });
});
