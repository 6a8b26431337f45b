import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '@app/shared/constants';
import HomePage from '../../../app/routes/home/home-page';
import { i18n } from '../../../lib/i18n';
import { json, mockFetch, renderPage } from '../../../test/render';
import { FakeRecognition } from '../engine/testing/fake-recognition';

/** The on-device panel on the home page's card, with the unit fake's `available/install` (Web Speech API draft). */

beforeEach(() => {
  FakeRecognition.reset();
  FakeRecognition.autoEndOnStop = true;
  vi.stubGlobal('webkitSpeechRecognition', FakeRecognition);
});

const card = () => screen.getByRole('region', { name: 'Live transcription' });
const privateBox = () => within(card()).getByRole('checkbox', { name: 'Private: audio stays on this device' });

describe('on-device recognition panel', () => {
  it('installs a downloadable language on a click, then records privately with processLocally', async () => {
    FakeRecognition.packs.set('en-US', 'downloadable');
    renderPage(<HomePage />);
    const ui = userEvent.setup();
    expect(await within(card()).findByText('On this device: can be installed')).toBeInTheDocument();
    expect(privateBox()).toBeDisabled();
    await ui.click(within(card()).getByRole('button', { name: 'Install English (United States) on this device' }));
    expect(FakeRecognition.installs).toEqual([['en-US']]);
    expect(await within(card()).findByText('English (United States) is installed: recognition can run on this device.')).toBeInTheDocument();
    expect(await within(card()).findByText('On this device: installed')).toBeInTheDocument();
    await ui.click(privateBox());
    await ui.click(within(card()).getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(FakeRecognition.instances.length).toBe(1));
    expect(FakeRecognition.current.processLocally).toBe(true);
    expect(within(card()).getByText('Recognizer: on this device')).toBeInTheDocument();
  });

  it('speaks the UI language, its copy fetched on first use in Portuguese', async () => {
    FakeRecognition.packs.set('en-US', 'downloadable');
    await i18n.changeLanguage('pt');
    renderPage(<HomePage />);
    const region = await screen.findByRole('region', { name: 'Transcrição ao vivo' });
    expect(await within(region).findByText('Neste dispositivo: pode ser instalado')).toBeInTheDocument();
    expect(within(region).getByRole('button', { name: 'Instalar Inglês (Estados Unidos) neste dispositivo' })).toHaveTextContent('Instalar');
  });

  it('says when the install fails and keeps the cloud recognizer', async () => {
    FakeRecognition.packs.set('en-US', 'downloadable');
    FakeRecognition.installResult = false;
    renderPage(<HomePage />);
    const ui = userEvent.setup();
    await ui.click(await within(card()).findByRole('button', { name: 'Install English (United States) on this device' }));
    expect(await within(card()).findByRole('alert')).toHaveTextContent('English (United States) could not be installed on this device. The cloud recognizer still works.');
    expect(privateBox()).toBeDisabled();
  });

  it('language-not-supported from the private recognizer explains, keeps the text and continues with the cloud recognizer', async () => {
    FakeRecognition.packs.set('en-US', 'available');
    renderPage(<HomePage />);
    const ui = userEvent.setup();
    await waitFor(() => expect(privateBox()).toBeEnabled());
    await ui.click(privateBox());
    await ui.click(within(card()).getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(FakeRecognition.instances.length).toBe(1));
    act(() => FakeRecognition.current.final('kept words'));
    act(() => FakeRecognition.current.error('language-not-supported'));
    const alert = await within(card()).findByRole('alert');
    expect(alert).toHaveTextContent('This language is not installed for on-device recognition (language-not-supported).');
    expect(alert).toHaveTextContent('Recording paused; everything heard so far is kept.');
    await ui.click(within(alert).getByRole('button', { name: 'Continue with the cloud recognizer' }));
    await waitFor(() => expect(FakeRecognition.instances.length).toBe(2));
    expect(FakeRecognition.current.processLocally).toBe(false);
    act(() => FakeRecognition.current.final('and more'));
    expect(within(card()).getByRole('region', { name: 'Transcript' })).toHaveTextContent('kept words and more');
    expect(within(card()).getByText('Recognizer: cloud service')).toBeInTheDocument();
  });

  it('checks and installs the language chosen, any of the list: a Pro user’s Japanese', async () => {
    FakeRecognition.packs.set('ja-JP', 'downloadable');
    window.localStorage.setItem(STORAGE_KEYS.sessionUser, 'tok');
    window.localStorage.setItem(STORAGE_KEYS.transcriptionLang, 'ja-JP');
    const pro = { id: 'u1', name: 'Ana', email: 'ana@example.com', language: 'en', theme: 'light', transcriptionLang: 'en-US', plan: 'pro', planExpiry: null, surveyShown: true, createdAt: '2025-01-01T00:00:00.000Z' };
    mockFetch(({ route }) => (route === 'getMe' ? json(200, pro) : json(404, {})));
    renderPage(<HomePage />);
    const ui = userEvent.setup();
    await ui.click(await within(card()).findByRole('button', { name: 'Install Japanese (Japan) on this device' }, { timeout: 5_000 }));
    expect(FakeRecognition.installs).toEqual([['ja-JP']]);
    expect(await within(card()).findByText('On this device: installed')).toBeInTheDocument();
  });
});
