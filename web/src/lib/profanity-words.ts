import { baseLanguage } from './base-language';

/**
 * The profanity word lists of the maintained `naughty-words` package, one JSON file per language,
 * each loaded on first use only (its own chunk: never in the first load). A language without a
 * list gets none.
 */
const LISTS: Readonly<Record<string, () => Promise<{ default: string[] }>>> = {
  en: () => import('naughty-words/en.json'),
  pt: () => import('naughty-words/pt.json'),
  es: () => import('naughty-words/es.json'),
  fr: () => import('naughty-words/fr.json'),
  ar: () => import('naughty-words/ar.json'),
  zh: () => import('naughty-words/zh.json'),
  ru: () => import('naughty-words/ru.json'),
};

const loaded = new Map<string, Promise<readonly string[]>>();

/** The word list of a recognition language's base language (`pt-BR` -> pt), loaded once. */
export function loadProfanityWords(lang: string): Promise<readonly string[]> {
  const base = baseLanguage(lang);
  const load = LISTS[base];
  if (!load) return Promise.resolve([]);
  let words = loaded.get(base);
  if (!words) {
    words = load().then(
      (m) => m.default,
      (err: unknown) => {
        loaded.delete(base);
        throw err;
      },
    );
    loaded.set(base, words);
  }
  return words;
}
