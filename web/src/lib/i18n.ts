import i18n, { type BackendModule, type ReadCallback } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { FALLBACK_UI_LANGUAGE, STORAGE_KEYS, UI_LANGUAGES, type UiLanguage } from '@app/shared/constants';
import en from '../locales/en.json';

/**
 * English is bundled (the fallback and the typed source of keys); Portuguese and
 * Spanish are separate chunks loaded when needed, so the home route stays small.
 */
const loaders: Record<UiLanguage, () => Promise<unknown>> = {
  en: async () => en,
  pt: async () => (await import('../locales/pt.json')).default,
  es: async () => (await import('../locales/es.json')).default,
};

export const isUiLanguage = (value: unknown): value is UiLanguage =>
  typeof value === 'string' && (UI_LANGUAGES as readonly string[]).includes(value);

const localeBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, _namespace: string, callback: ReadCallback) {
    if (!isUiLanguage(language)) return callback(null, {});
    loaders[language]().then(
      (data) => callback(null, data as Record<string, unknown>),
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), false),
    );
  },
};

/** Keeps `<html lang>` and the description in step with the UI language. */
function applyDocumentLanguage(language: string): void {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = language;
  document.querySelector('meta[name="description"]')?.setAttribute('content', i18n.t('app.description'));
}

i18n.on('languageChanged', applyDocumentLanguage);

/** Resolves once the detected language is loaded; render after it to avoid a flash of English. */
export const i18nReady = i18n
  .use(localeBackend)
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    resources: { en: { translation: en } },
    partialBundledLanguages: true,
    supportedLngs: [...UI_LANGUAGES],
    fallbackLng: FALLBACK_UI_LANGUAGE,
    load: 'languageOnly',
    interpolation: { escapeValue: false },
    returnNull: false,
    detection: {
      order: ['localStorage', 'navigator'],
      lookupLocalStorage: STORAGE_KEYS.uiLanguage,
      caches: ['localStorage'],
      convertDetectedLanguage: (lng: string) => lng.split('-')[0]?.toLowerCase() ?? lng,
    },
  });

/** The UI language in use, always one of UI_LANGUAGES. */
export function currentUiLanguage(): UiLanguage {
  const lng = i18n.resolvedLanguage ?? i18n.language;
  return isUiLanguage(lng) ? lng : FALLBACK_UI_LANGUAGE;
}

export { i18n };
