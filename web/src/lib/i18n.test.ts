import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '@app/shared/constants';
import { detectUiLanguage, i18n } from './i18n';

const browserLanguages = (languages: string[]) => vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);

describe('the UI language', () => {
  afterEach(() => localStorage.clear());

  it('is the one stored on this device when the app speaks it', () => {
    browserLanguages(['es-ES']);
    localStorage.setItem(STORAGE_KEYS.uiLanguage, 'pt');
    expect(detectUiLanguage()).toBe('pt');
  });

  it('else the first browser language the app speaks, by its primary subtag', () => {
    browserLanguages(['de-DE', 'pt-BR', 'es']);
    localStorage.setItem(STORAGE_KEYS.uiLanguage, 'de');
    expect(detectUiLanguage()).toBe('pt');
  });

  it('else English', () => {
    browserLanguages(['de-DE', 'fr']);
    expect(detectUiLanguage()).toBe('en');
  });

  it('in use is kept on the device for the next visit', async () => {
    await i18n.changeLanguage('es');
    expect(localStorage.getItem(STORAGE_KEYS.uiLanguage)).toBe('es');
    browserLanguages(['en-US']);
    expect(detectUiLanguage()).toBe('es');
  });
});
