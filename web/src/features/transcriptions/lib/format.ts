import type { TFunction } from 'i18next';

/** Minutes east of UTC (the API's tzOffset), so "March" means March where the user is. */
export const localTzOffset = () => -new Date().getTimezoneOffset();

/** Saved transcriptions' durations: seconds, or minutes and seconds above 59. */
export function formatSavedDuration(totalSeconds: number, t: TFunction): string {
  const s = Math.max(0, Math.round(totalSeconds));
  if (s < 60) return t('saved.seconds', { seconds: s });
  return t('saved.minutesSeconds', { minutes: Math.floor(s / 60), seconds: s % 60 });
}

/** The local calendar month of a timestamp, as YYYY-MM. */
export function monthOf(iso: string): string | undefined {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return undefined;
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}`;
}

/** "2025-03" as "March 2025" in the UI language. */
export function monthLabel(month: string, uiLanguage: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const label = new Intl.DateTimeFormat(uiLanguage, { month: 'long', year: 'numeric' }).format(new Date(y, m - 1, 1));
  return label.charAt(0).toLocaleUpperCase(uiLanguage) + label.slice(1);
}
