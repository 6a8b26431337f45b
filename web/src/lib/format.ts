import { i18n } from './i18n';

/** Seconds as MM:SS (minutes keep growing past 59: 3600 -> "60:00"). */
export function formatCountdown(totalSeconds: number): string {
  const s = Math.max(0, Math.ceil(totalSeconds));
  const minutes = Math.floor(s / 60);
  const seconds = s % 60;
  return `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
}

/** A language tag's name in the UI language ("pt-BR" -> "Portuguese (Brazil)"), capitalised; the tag itself when the browser cannot name it. */
export function languageName(tag: string, uiLanguage: string): string {
  // The featured languages' names are written out in each locale file (recognitionLanguageNames), as
  // Intl.DisplayNames gives them (a test holds them to it): building an Intl.DisplayNames loads locale
  // data and costs tens of milliseconds on a phone (about 20 ms on a server core), on the home
  // route's first render. Each UI language's come with its copy.
  const known: unknown = i18n.getResource(uiLanguage, 'translation', `recognitionLanguageNames.${tag}`);
  if (typeof known === 'string') return known;
  let name: string | undefined;
  try {
    name = new Intl.DisplayNames([uiLanguage], { type: 'language', languageDisplay: 'standard' }).of(tag);
  } catch {
    name = undefined;
  }
  if (!name) return tag;
  return name.charAt(0).toLocaleUpperCase(uiLanguage) + name.slice(1);
}

export function formatDate(iso: string, uiLanguage: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(uiLanguage, { dateStyle: 'long' }).format(date);
}
