import type { RecognitionLanguage } from '@app/shared/constants';
import type { CorrectionSettings } from '@app/shared/schemas/corrections';
import type { Segment } from '@app/shared/schemas/transcriptions';
import { joinsPrevious } from '../../../lib/text-join';

/**
 * The one point where a recognition result becomes transcript text: spoken commands, replacements
 * and the speaker's profanity mode (lib/text-corrections.ts), and a paragraph break before a final
 * result that starts at least the paragraph silence after the one before ended. Final and interim
 * results alike, so nothing changes when an interim result becomes final. The lists are compiled
 * once per settings and language (`configure`); a result costs its own length, never the transcript's.
 */

export type WordsLoader = (language: RecognitionLanguage) => Promise<readonly string[]>;

const identity = (text: string) => text;

export class ResultCorrections {
  private correct: (text: string) => string = identity;
  private paragraphMs: number | null = null;
  private settings: CorrectionSettings | null = null;
  private language: RecognitionLanguage | null = null;
  private generation = 0;
  /** Resolves once the corrections of the latest `configure` are in force (their word list loaded). */
  ready: Promise<void> = Promise.resolve();
  /** How many times lists were compiled (tests: once per change, never per result). */
  compiles = 0;
  /** A word list is loading: the corrections of the latest `configure` are not all in force yet. */
  pending = false;

  constructor(private readonly loadWords: WordsLoader) {}

  /**
   * Compiles the corrections of `settings` for `language`; the same settings object and language
   * again change nothing. With a profanity mode on, the language's word list loads first.
   */
  configure(settings: CorrectionSettings, language: RecognitionLanguage): Promise<void> {
    if (settings === this.settings && language === this.language) return this.ready;
    this.settings = settings;
    this.language = language;
    this.paragraphMs = settings.paragraphSilence === null ? null : settings.paragraphSilence * 1000;
    const generation = ++this.generation;
    const { replacements, profanity, voiceCommands } = settings;
    if (replacements.length === 0 && profanity === 'off' && !voiceCommands) {
      this.correct = identity;
      this.compiles += 1;
      this.pending = false;
      this.ready = Promise.resolve();
      return this.ready;
    }
    // The corrections' code (and a word list, with a profanity mode on) loads only when one is on.
    this.correct = identity;
    this.pending = true;
    const words = profanity === 'off' ? Promise.resolve([]) : this.loadWords(language);
    this.ready = Promise.all([import('../../../lib/text-corrections'), words])
      .then(
        ([{ corrector }, list]) => {
          if (generation !== this.generation) return;
          this.correct = corrector(settings, language, list);
          this.compiles += 1;
        },
        (err: unknown) => console.error('[corrections]', err),
      )
      .finally(() => {
        if (generation === this.generation) this.pending = false;
      });
    return this.ready;
  }

  /** An interim result's text, corrected as its final result will be. */
  interim(text: string): string {
    return this.correct(text);
  }

  /**
   * A final result as the transcript takes it: corrected, and opening a paragraph when it starts
   * the paragraph silence or more after `previous` ended (not when it joins the text before:
   * punctuation, or a line break already there).
   */
  final(segment: Segment, previous: Segment | undefined): Segment {
    let text = this.correct(segment.text).replace(/^[^\S\n]+|[^\S\n]+$/gu, '');
    if (
      previous &&
      this.paragraphMs !== null &&
      segment.startMs - previous.endMs >= this.paragraphMs &&
      text &&
      !text.startsWith('\n') &&
      !previous.text.endsWith('\n') &&
      !joinsPrevious(text)
    ) {
      text = `\n\n${text}`;
    }
    return text === segment.text ? segment : { ...segment, text };
  }
}
