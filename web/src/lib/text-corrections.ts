/**
 * Corrections applied to recognized text as it arrives (final and interim results alike), in
 * this order: spoken commands (new paragraph, new line, punctuation) when the user turned them on,
 * then the user's word replacements, then the profanity mask. Pure functions; each call costs
 * time in the length of the text it is given (one result), never in the transcript's.
 *
 * Phrases match whole words, case-insensitively, in every script: a phrase is bounded by anything
 * but a letter, mark or digit (so "cat" is not found in "category", nor "new paragraph" in "new
 * paragraphs"), except in scripts written without spaces between words (Chinese, Japanese, Thai…),
 * where a phrase matches wherever it occurs.
 */

import { baseLanguage } from './base-language';

/** Letters, marks and digits: what a whole-word match must not touch on either side. */
const WORD_CHAR = String.raw`[\p{L}\p{M}\p{N}]`;
/** Scripts written without spaces between words. */
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** Escapes what a pattern would read as syntax (only that: the `u` flag refuses any other escape, `\-` included). */
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A phrase as a pattern: its words escaped, any run of white space between them. */
const phrasePattern = (phrase: string) => phrase.trim().split(/\s+/u).map(escapeRegExp).join(String.raw`\s+`);

export interface PhraseMatcher {
  /** Replaces every match; `by` gets the index (in the list given) of the phrase matched and the text matched. */
  replace(text: string, by: (index: number, matched: string) => string): string;
}

/**
 * One regular expression for a whole list (longest phrases first, so "new york city" wins over
 * "new york"), a capture group per phrase. A phrase listed twice (case aside) keeps its first
 * entry; empty phrases are ignored.
 */
export function phraseMatcher(phrases: readonly string[]): PhraseMatcher {
  const seen = new Set<string>();
  const entries: { index: number; phrase: string }[] = [];
  phrases.forEach((raw, index) => {
    const phrase = raw.trim().replace(/\s+/gu, ' ');
    const key = phrase.toLocaleLowerCase();
    if (!phrase || seen.has(key)) return;
    seen.add(key);
    entries.push({ index, phrase });
  });
  if (entries.length === 0) return { replace: (text) => text };
  entries.sort((a, b) => b.phrase.length - a.phrase.length);
  const source = entries
    .map(({ phrase }) => (UNSPACED_SCRIPT.test(phrase) ? `(${phrasePattern(phrase)})` : `(?<!${WORD_CHAR})(${phrasePattern(phrase)})(?!${WORD_CHAR})`))
    .join('|');
  const pattern = new RegExp(source, 'giu');
  return {
    replace(text, by) {
      return text.replace(pattern, (matched: string, ...groups: unknown[]) => {
        const group = groups.findIndex((g, i) => i < entries.length && g !== undefined);
        return by(entries[group]!.index, matched);
      });
    },
  };
}

/** A user's word replacement: `phrase` (whole words, any case) becomes `replacement`. */
export interface Replacement {
  phrase: string;
  replacement: string;
}

/** The replacement list as one function of a result's text. */
export function replacer(list: readonly Replacement[]): (text: string) => string {
  if (list.length === 0) return (text) => text;
  const matcher = phraseMatcher(list.map((r) => r.phrase));
  return (text) => matcher.replace(text, (i) => list[i]!.replacement);
}

/** How profanity shows: as spoken, as its first letter and asterisks, or not at all. */
export type ProfanityMode = 'off' | 'mask' | 'hide';

/** `damn` -> `d***`, by characters (code points), not UTF-16 units. */
export function maskWord(word: string): string {
  const chars = Array.from(word);
  return chars[0]! + chars.slice(1).map((c) => (/\s/u.test(c) ? c : '*')).join('');
}

/** Spaces left twice or at an end once a word is hidden; line and paragraph breaks stay. */
const tidySpaces = (text: string) => text.replace(/[^\S\n]{2,}/gu, ' ').replace(/^[^\S\n]+|[^\S\n]+$/gmu, '');

/** The mask of a word list, in one of the modes. */
export function profanityFilter(words: readonly string[], mode: ProfanityMode): (text: string) => string {
  if (mode === 'off' || words.length === 0) return (text) => text;
  const matcher = phraseMatcher(words);
  if (mode === 'mask') return (text) => matcher.replace(text, (_, matched) => maskWord(matched));
  return (text) => tidySpaces(matcher.replace(text, () => ''));
}

/** What a spoken command writes. */
export type CommandOutput = '\n\n' | '\n' | ',' | '.' | '?' | ':';

/**
 * The spoken commands of each recognition language's base language: whole phrases only. Words
 * that are also ordinary words in running speech ("period", "punto") are left out: "full stop",
 * "punto final" say it without doubt.
 */
export const VOICE_COMMANDS: Readonly<Record<string, Readonly<Record<CommandOutput, readonly string[]>>>> = {
  en: { '\n\n': ['new paragraph'], '\n': ['new line'], ',': ['comma'], '.': ['full stop'], '?': ['question mark'], ':': ['colon'] },
  pt: {
    '\n\n': ['novo parágrafo'],
    '\n': ['nova linha'],
    ',': ['vírgula'],
    '.': ['ponto final'],
    '?': ['ponto de interrogação'],
    ':': ['dois pontos'],
  },
  es: {
    '\n\n': ['nuevo párrafo', 'punto y aparte'],
    '\n': ['nueva línea'],
    ',': ['coma'],
    '.': ['punto final', 'punto y seguido'],
    '?': ['signo de interrogación', 'signo de pregunta'],
    ':': ['dos puntos'],
  },
  fr: {
    '\n\n': ['nouveau paragraphe'],
    '\n': ['nouvelle ligne', 'à la ligne'],
    ',': ['virgule'],
    '.': ['point final'],
    '?': ["point d'interrogation"],
    ':': ['deux-points', 'deux points'],
  },
};

/** Whether spoken commands exist for this recognition language. */
export const hasVoiceCommands = (lang: string) => baseLanguage(lang) in VOICE_COMMANDS;

/**
 * Spoken commands written as what they say: punctuation joins the word before it (and a full stop
 * or question mark capitalizes the next word), a new line or paragraph takes the spaces around it.
 * A result that starts with punctuation keeps it first: the transcript joins it to the result
 * before without a space (`joinsPrevious`).
 */
export function voiceCommands(lang: string): (text: string) => string {
  const commands = VOICE_COMMANDS[baseLanguage(lang)];
  if (!commands) return (text) => text;
  const outputs: CommandOutput[] = [];
  const phrases: string[] = [];
  for (const [output, said] of Object.entries(commands) as [CommandOutput, readonly string[]][]) {
    for (const phrase of said) {
      outputs.push(output);
      phrases.push(phrase);
    }
  }
  const matcher = phraseMatcher(phrases);
  // Private-use marks stand for the commands while the text around them is tidied.
  const MARK = '\u{F0000}';
  return (text) => {
    const found: CommandOutput[] = [];
    const marked = matcher.replace(text, (i) => {
      found.push(outputs[i]!);
      return `${MARK}${found.length - 1}${MARK}`;
    });
    if (found.length === 0) return text;
    let out = '';
    let capitalize = false;
    for (const part of marked.split(new RegExp(`${MARK}(\\d+)${MARK}`, 'u')).map((p, i) => (i % 2 ? found[Number(p)]! : p))) {
      if (part === '\n\n' || part === '\n') {
        out = out.replace(/[^\S\n]+$/u, '') + part;
        capitalize = true;
      } else if (part === ',' || part === '.' || part === '?' || part === ':') {
        out = out.replace(/[^\S\n]+$/u, '') + part;
        capitalize = part === '.' || part === '?';
      } else {
        let piece = out === '' || out.endsWith('\n') ? part.replace(/^[^\S\n]+/u, '') : part;
        if (capitalize) piece = piece.replace(/\p{Ll}/u, (c) => c.toLocaleUpperCase());
        if (/\p{L}|\p{N}/u.test(piece)) capitalize = false;
        out += piece;
      }
    }
    return out;
  };
}


/** The settings a corrector is compiled from (a part of the account's correction settings). */
export interface CorrectorSettings {
  replacements: readonly Replacement[];
  profanity: ProfanityMode;
  voiceCommands: boolean;
}

/**
 * The corrections of one recognition language as one function of a result's text, compiled once:
 * spoken commands (when on and the language has them), then the replacements, then the profanity
 * mode with the language's word list (`words`; none: nothing to mask).
 */
export function corrector(settings: CorrectorSettings, lang: string, words: readonly string[] = []): (text: string) => string {
  const steps = [
    settings.voiceCommands && hasVoiceCommands(lang) ? voiceCommands(lang) : null,
    settings.replacements.length > 0 ? replacer(settings.replacements) : null,
    settings.profanity !== 'off' && words.length > 0 ? profanityFilter(words, settings.profanity) : null,
  ].filter((step) => step !== null);
  if (steps.length === 0) return (text) => text;
  return (text) => steps.reduce((out, step) => step(out), text);
}
