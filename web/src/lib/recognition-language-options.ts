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

/** A recognition language and its name in the UI language. */
export type NamedLanguage = Pick<LanguageOption, 'tag' | 'name' | 'featured'>;

const namedByUi = new Map<string, NamedLanguage[]>();

/** Every recognition language named in the UI language, featured first (in their order), then the others by name. */
export function languagesByName(uiLanguage: string): NamedLanguage[] {
  let named = namedByUi.get(uiLanguage);
  if (!named) {
    const all = RECOGNITION_LANGUAGES.map((tag): NamedLanguage => ({ tag, name: languageName(tag, uiLanguage), featured: featured.has(tag) }));
    const collator = new Intl.Collator(uiLanguage);
    named = [...all.filter((o) => o.featured), ...all.filter((o) => !o.featured).sort((a, b) => collator.compare(a.name, b.name))];
    namedByUi.set(uiLanguage, named);
  }
  return named;
}

const optionsByUi = new Map<string, LanguageOption[]>();

/** Every recognition language as the search shows it, in the order of `languagesByName`, with its own name too. */
export function languageOptions(uiLanguage: string): LanguageOption[] {
  let options = optionsByUi.get(uiLanguage);
  if (!options) {
    options = languagesByName(uiLanguage).map(({ tag, name, featured: isFeatured }): LanguageOption => {
      const ownName = ownLanguageName(tag) ?? name;
      return { tag, ownName, name, featured: isFeatured, search: fold(`${ownName}\n${name}\n${languageName(tag, 'en')}\n${tag}`) };
    });
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
