import { STORAGE_KEYS } from '@app/shared/constants';
import { DEFAULT_CORRECTIONS } from '@app/shared/constants';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch, renderPage, type MockCall } from '../../../test/render';
import ProfilePage from './profile-page';

const user = {
  id: 'u1', name: 'Ana', email: 'ana@example.com', language: 'en', theme: 'light',
  transcriptionLang: 'en-US', plan: 'free', planExpiry: null, createdAt: '2025-01-01T00:00:00.000Z',
};

/** GET /api/auth/me and GET/PUT /api/me/corrections; `refuse` answers the PUT with that 400 message. */
function fakeServer(initial: object = DEFAULT_CORRECTIONS, refuse?: string) {
  let saved = initial;
  return mockFetch((call: MockCall) => {
    if (call.route === 'getMe') return json(200, user);
    if (call.route === 'getCorrections') return json(200, saved);
    if (call.route === 'putCorrections') {
      if (refuse) return json(400, { error: refuse });
      saved = call.body as object;
      return json(200, saved);
    }
    return json(404, { error: 'Not found' });
  });
}

const section = async () => within(await screen.findByRole('region', { name: 'Corrections' }));

describe('profile: corrections', () => {
  it('adds, edits and removes replacements, sets the modes, voice commands and paragraphs, and saves them whole', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    const calls = fakeServer({ ...DEFAULT_CORRECTIONS, replacements: [{ phrase: 'old', replacement: 'gone' }] });
    renderPage(<ProfilePage />, { path: '/profile' });
    const s = await section();
    const ui = userEvent.setup();
    expect(s.getByRole('textbox', { name: 'Phrase 1' })).toHaveValue('old');
    await ui.click(s.getByRole('button', { name: 'Remove replacement 1' }));
    await ui.click(s.getByRole('button', { name: 'Add a replacement' }));
    await ui.type(s.getByRole('textbox', { name: 'Phrase 1' }), 'gonna');
    await ui.type(s.getByRole('textbox', { name: 'Replacement 1' }), 'going to');
    await ui.selectOptions(s.getByLabelText('Profanity in my transcript'), 'Mask (f***)');
    await ui.selectOptions(s.getByLabelText('Profanity in my live shares'), 'Hide');
    await ui.click(s.getByRole('switch', { name: 'Voice commands' }));
    // The commands of the user's recognition language are listed.
    expect(s.getByText(/“new paragraph”/)).toBeInTheDocument();
    await ui.selectOptions(s.getByLabelText('New paragraph after a silence of'), 'Never');
    await ui.click(s.getByRole('button', { name: 'Save corrections' }));
    expect(await screen.findByText('Corrections saved')).toBeInTheDocument();
    expect(calls.find((c) => c.route === 'putCorrections')?.body).toEqual({
      replacements: [{ phrase: 'gonna', replacement: 'going to' }],
      profanity: 'mask',
      shareProfanity: 'hide',
      voiceCommands: true,
      paragraphSilence: null,
    });
  });

  it('says what is wrong with a row and sends nothing; shows the server refusal', async () => {
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    const calls = fakeServer(DEFAULT_CORRECTIONS, 'At most 200 replacements');
    renderPage(<ProfilePage />, { path: '/profile' });
    const s = await section();
    const ui = userEvent.setup();
    await ui.click(s.getByRole('button', { name: 'Add a replacement' }));
    await ui.click(s.getByRole('button', { name: 'Save corrections' }));
    expect(s.getByRole('textbox', { name: 'Phrase 1' })).toHaveAccessibleDescription('Enter the phrase to replace, or remove the row.');
    expect(calls.some((c) => c.route === 'putCorrections')).toBe(false);
    await ui.type(s.getByRole('textbox', { name: 'Phrase 1' }), 'x');
    await ui.click(s.getByRole('button', { name: 'Save corrections' }));
    expect(await s.findByText('At most 200 replacements')).toBeInTheDocument();
  });
});
