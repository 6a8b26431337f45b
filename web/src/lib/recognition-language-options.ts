import { FEATURED_RECOGNITION_LANGUAGES } from '@app/shared/constants';
import { RECOGNITION_LANGUAGES, type RecognitionLanguage } from '@app/shared/recognition-languages';
import { languageName } from './format';

/**
 * Every recognition language as a list shows it: its own name (日本語 (日本)), its name in the UI
 * language (Japanese (Japan)) and its tag, featured ones first, the others by name. The names come
 * from the browser's Intl.DisplayNames; building one per language costs tens of milliseconds, so
 * only the pages that show the whole list load this module.
 */
export interface LanguageOption {
  tag: RecognitionLanguage;
  /** The language's name in itself, e.g. "日本語 (日本)"; its name in the UI language when the browser has none. */
  ownName: string;
  /** The language's name in the UI language, e.g. "Japanese (Japan)". */
  name: string;
  featured: boolean;
  /** What a search matches: both names, the English name and the tag, folded (`fold`). */
  search: string;
}

const featured: ReadonlySet<string> = new Set(FEATURED_RECOGNITION_LANGUAGES);

/** Lower case, without accents or other marks, full-width forms as ASCII: "Português" and "portugues" match. */
export const fold = (text: string) =>
  text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase('en').replace(/_/g, '-');

/** The language's name in the language itself, as Intl.DisplayNames gives it, capitalised as that language does. */
export function ownLanguageName(tag: string): string | undefined {
  const name = languageName(tag, tag);
  return name === tag ? undefined : name;
}

const optionsByUi = new Map<string, LanguageOption[]>();

/** Every recognition language, featured first (in their order), then the others by their name in the UI language. */
export function languageOptions(uiLanguage: string): LanguageOption[] {
  let options = optionsByUi.get(uiLanguage);
  if (!options) {
    const all = RECOGNITION_LANGUAGES.map((tag): LanguageOption => {
      const name = languageName(tag, uiLanguage);
      const ownName = ownLanguageName(tag) ?? name;
      const english = languageName(tag, 'en');
      return { tag, ownName, name, featured: featured.has(tag), search: fold(`${ownName}\n${name}\n${english}\n${tag}`) };
    });
    const collator = new Intl.Collator(uiLanguage);
    options = [...all.filter((o) => o.featured), ...all.filter((o) => !o.featured).sort((a, b) => collator.compare(a.name, b.name))];
    optionsByUi.set(uiLanguage, options);
  }
  return options;
}

/** The options whose names or tag hold every word of the query ("japan", "日本", "ja-jp", "portugues brasil"). */
export function filterLanguages(options: readonly LanguageOption[], query: string): readonly LanguageOption[] {
  const words = fold(query).split(/\s+/u).filter(Boolean);
  if (words.length === 0) return options;
  return options.filter((o) => words.every((w) => o.search.includes(w)));
}
