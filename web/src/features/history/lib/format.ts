import type { TFunction } from 'i18next';

/** Minutes east of UTC (the API's tzOffset), so "March" means March where the user is. */
export const localTzOffset = () => -new Date().getTimezoneOffset();

/** History durations: seconds, or minutes and seconds above 59. */
export function formatHistoryDuration(totalSeconds: number, t: TFunction): string {
  const s = Math.max(0, Math.round(totalSeconds));
  if (s < 60) return t('history.seconds', { seconds: s });
  return t('history.minutesSeconds', { minutes: Math.floor(s / 60), seconds: s % 60 });
}

export function formatDateTime(iso: string, uiLanguage: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(uiLanguage, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}
