/**
 * How recognition results join into transcript text: a tiny module of its own, as the transcript
 * store (in every first load) needs it while the corrections (lib/text-corrections.ts) load only
 * when a correction is on.
 */

/** Whether a result's text begins with punctuation that belongs to the word before it. */
export const joinsPrevious = (text: string) => /^[,.?:!;]/u.test(text);

/**
 * What goes between the transcript so far (ending in `previous`) and a new result: nothing at the
 * start, after a line break, before a result that starts with one (a paragraph) or with
 * punctuation (`joinsPrevious`); otherwise the language's separator (a space, or none in Chinese).
 */
export function joinFor(previous: string | undefined, text: string, separator: string): string {
  if (!previous || previous.endsWith('\n') || text.startsWith('\n') || joinsPrevious(text)) return '';
  return separator;
}
