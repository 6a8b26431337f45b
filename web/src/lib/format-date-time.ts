/**
 * A date and time, as a transcription is dated in its list, its detail and its exports. A module
 * of its own, not in `format.ts`: that one is part of every first load, this only of the pages
 * that show transcriptions and of the Word export.
 */
export function formatDateTime(iso: string, uiLanguage: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(uiLanguage, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}
