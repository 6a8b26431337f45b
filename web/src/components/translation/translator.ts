/**
 * The browser's on-device Translator API (`self.Translator`), feature-detected, as its draft
 * defines it: `Translator.availability({sourceLanguage, targetLanguage})` answers 'unavailable',
 * 'downloadable', 'downloading' or 'available'; `Translator.create({sourceLanguage,
 * targetLanguage, monitor})` makes a translator (the monitor's `downloadprogress` events carry
 * `loaded`, 0 to 1, while the model downloads; create() needs a user gesture when the pair is
 * downloadable); `translator.translate(text)` resolves with the translation. Nothing is sent
 * anywhere: translation runs in the reader's browser.
 */

export type TranslatorAvailability = 'unavailable' | 'downloadable' | 'downloading' | 'available';

export interface TranslatorLanguages {
  sourceLanguage: string;
  targetLanguage: string;
}

export interface TranslatorInstance {
  translate(input: string, options?: { signal?: AbortSignal }): Promise<string>;
  destroy?(): void;
}

export interface TranslatorApi {
  availability(options: TranslatorLanguages): Promise<TranslatorAvailability>;
  create(options: TranslatorLanguages & { monitor?: (monitor: EventTarget) => void; signal?: AbortSignal }): Promise<TranslatorInstance>;
}

/** `self.Translator` when it has availability() and create(); undefined elsewhere (phones, Safari, Firefox today). */
export function getTranslatorApi(scope: object | undefined = typeof self === 'undefined' ? undefined : self): TranslatorApi | undefined {
  const api = (scope as { Translator?: Partial<TranslatorApi> } | undefined)?.Translator;
  if (!api || typeof api.availability !== 'function' || typeof api.create !== 'function') return undefined;
  return api as TranslatorApi;
}

/**
 * A recognition locale's language for the Translator ("pt-BR" -> "pt", "zh-CN" -> "zh"), with the
 * script where the Translator tells two apart: Chinese of Taiwan is written in traditional
 * characters ("zh-TW" -> "zh-Hant").
 */
export function translatorLanguage(tag: string): string {
  const base = tag.split('-')[0]!.toLowerCase();
  if (base !== 'zh') return base;
  try {
    return new Intl.Locale(tag).maximize().script === 'Hant' ? 'zh-Hant' : 'zh';
  } catch {
    return 'zh';
  }
}

/** The languages a reader may translate captions into (BCP 47, as the Translator takes them). */
export const TARGET_LANGUAGES = ['en', 'es', 'pt', 'fr', 'de', 'it', 'ar', 'he', 'zh', 'ru', 'ja', 'ko', 'hi', 'tr', 'nl', 'pl', 'uk', 'vi', 'id'] as const;

/**
 * Translates pieces of final text in order, each exactly once: push() queues a piece and
 * onTranslated(index, text) reports its translation, piece after piece, never out of order and
 * never again for an earlier piece. A piece that fails to translate is reported as its original.
 */
export class PieceTranslator {
  private queue: Promise<void> = Promise.resolve();
  private count = 0;
  private stopped = false;

  constructor(
    private readonly translator: TranslatorInstance,
    private readonly onTranslated: (index: number, text: string, failed: boolean) => void,
  ) {}

  /** Queues `piece`; returns its index. */
  push(piece: string): number {
    const index = this.count++;
    this.queue = this.queue.then(async () => {
      if (this.stopped) return;
      let text = piece.trim();
      let failed = false;
      if (text) {
        try {
          text = await this.translator.translate(text);
        } catch {
          failed = true;
        }
      }
      if (!this.stopped) this.onTranslated(index, text, failed);
    });
    return index;
  }

  /** Pieces queued so far. */
  get pushed(): number {
    return this.count;
  }

  /** Resolves once every piece queued so far is reported. */
  idle(): Promise<void> {
    return this.queue;
  }

  stop(): void {
    this.stopped = true;
    this.translator.destroy?.();
  }
}

/** Writing direction of a target language. */
export const targetDirection = (tag: string): 'rtl' | 'ltr' => (['ar', 'he', 'fa', 'ur'].includes(tag) ? 'rtl' : 'ltr');
