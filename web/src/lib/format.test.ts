import { describe, expect, it } from 'vitest';
import { FEATURED_RECOGNITION_LANGUAGES, UI_LANGUAGES } from '@app/shared/constants';
import en from '../locales/en.json';
import es from '../locales/es.json';
import pt from '../locales/pt.json';
import { RECOGNITION_LANGUAGES } from '@app/shared/recognition-languages';
import { formatCountdown, languageName } from './format';

describe('formatCountdown', () => {
  it('formats whole seconds as MM:SS', () => {
    expect(formatCountdown(0)).toBe('00:00');
    expect(formatCountdown(5)).toBe('00:05');
    expect(formatCountdown(65)).toBe('01:05');
    expect(formatCountdown(599)).toBe('09:59');
    expect(formatCountdown(3600)).toBe('60:00');
  });

  it('rounds partial seconds up and never goes below zero', () => {
    expect(formatCountdown(59.2)).toBe('01:00');
    expect(formatCountdown(-3)).toBe('00:00');
  });
});

describe('languageName', () => {
  it('names a recognition language in the UI language', () => {
    expect(languageName('pt-BR', 'en')).toBe('Portuguese (Brazil)');
    expect(languageName('en-US', 'pt')).toMatch(/^Inglês/);
    expect(languageName('es-ES', 'es')).toMatch(/^Español/);
  });

  it('each locale file writes out the featured names as Intl.DisplayNames gives them', () => {
    const files = { en, pt, es } as const;
    for (const ui of UI_LANGUAGES) {
      const display = new Intl.DisplayNames([ui], { type: 'language', languageDisplay: 'standard' });
      expect(Object.keys(files[ui].recognitionLanguageNames)).toEqual([...FEATURED_RECOGNITION_LANGUAGES]);
      for (const tag of FEATURED_RECOGNITION_LANGUAGES) {
        const name = display.of(tag)!;
        expect(files[ui].recognitionLanguageNames[tag], `${ui} ${tag}`).toBe(name.charAt(0).toLocaleUpperCase(ui) + name.slice(1));
      }
    }
  });

  it('names every recognition language, in every UI language', () => {
    for (const ui of UI_LANGUAGES) {
      const display = new Intl.DisplayNames([ui], { type: 'language', languageDisplay: 'standard' });
      for (const tag of RECOGNITION_LANGUAGES) {
        const name = display.of(tag)!;
        expect(languageName(tag, ui)).toBe(name.charAt(0).toLocaleUpperCase(ui) + name.slice(1));
      }
    }
  });

  it('falls back to Intl.DisplayNames for other tags, and to the tag itself', () => {
    expect(languageName('de-DE', 'en')).toBe('German (Germany)');
    expect(languageName('not a tag', 'en')).toBe('not a tag');
  });
});
