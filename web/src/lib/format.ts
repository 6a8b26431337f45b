import type { FEATURED_RECOGNITION_LANGUAGES, UiLanguage } from '@app/shared/constants';

/** Seconds as MM:SS (minutes keep growing past 59: 3600 -> "60:00"). */
export function formatCountdown(totalSeconds: number): string {
  const s = Math.max(0, Math.ceil(totalSeconds));
  const minutes = Math.floor(s / 60);
  const seconds = s % 60;
  return `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
}

/**
 * The featured recognition languages' names in each UI language, as the browser's
 * Intl.DisplayNames gives them (CLDR; a test holds them to it), written out: building an
 * Intl.DisplayNames loads locale data and costs tens of milliseconds on a phone (about 20 ms on
 * a server core), on the home route's first render. Every other language is named by
 * Intl.DisplayNames itself, where the whole list is shown (the language search, the profile).
 */
const RECOGNITION_LANGUAGE_NAMES: Record<UiLanguage, Record<(typeof FEATURED_RECOGNITION_LANGUAGES)[number], string>> = {
  en: {
    'en-US': 'English (United States)', 'es-ES': 'Spanish (Spain)', 'pt-BR': 'Portuguese (Brazil)', 'fr-FR': 'French (France)',
    'ar-SA': 'Arabic (Saudi Arabia)', 'he-IL': 'Hebrew (Israel)', 'zh-CN': 'Chinese (China)', 'ru-RU': 'Russian (Russia)',
  },
  pt: {
    'en-US': 'Inglês (Estados Unidos)', 'es-ES': 'Espanhol (Espanha)', 'pt-BR': 'Português (Brasil)', 'fr-FR': 'Francês (França)',
    'ar-SA': 'Árabe (Arábia Saudita)', 'he-IL': 'Hebraico (Israel)', 'zh-CN': 'Chinês (China)', 'ru-RU': 'Russo (Rússia)',
  },
  es: {
    'en-US': 'Inglés (Estados Unidos)', 'es-ES': 'Español (España)', 'pt-BR': 'Portugués (Brasil)', 'fr-FR': 'Francés (Francia)',
    'ar-SA': 'Árabe (Arabia Saudí)', 'he-IL': 'Hebreo (Israel)', 'zh-CN': 'Chino (China)', 'ru-RU': 'Ruso (Rusia)',
  },
};

const displayNames = new Map<string, Intl.DisplayNames | null>();

/** A language's name as Intl.DisplayNames gives it in `uiLanguage`, capitalised; undefined when the runtime cannot name it. */
export function displayLanguageName(tag: string, uiLanguage: string): string | undefined {
  let display = displayNames.get(uiLanguage);
  if (display === undefined) {
    try {
      display = new Intl.DisplayNames([uiLanguage], { type: 'language', languageDisplay: 'standard' });
    } catch {
      display = null;
    }
    displayNames.set(uiLanguage, display);
  }
  let name: string | undefined;
  try {
    name = display?.of(tag);
  } catch {
    name = undefined;
  }
  if (!name || name === tag) return undefined;
  return name.charAt(0).toLocaleUpperCase(uiLanguage) + name.slice(1);
}

/** A language tag's name in the UI language ("pt-BR" -> "Portuguese (Brazil)"), capitalised; the tag itself when no name is known. */
export function languageName(tag: string, uiLanguage: string): string {
  const known = (RECOGNITION_LANGUAGE_NAMES as Partial<Record<string, Partial<Record<string, string>>>>)[uiLanguage]?.[tag];
  return known ?? displayLanguageName(tag, uiLanguage) ?? tag;
}

export function formatDate(iso: string, uiLanguage: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(uiLanguage, { dateStyle: 'long' }).format(date);
}
