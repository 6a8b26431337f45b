import type { TranslatorAvailability, TranslatorLanguages } from '../translator';

/**
 * The Translator API draft's `Translator` for unit tests (stub it as `self.Translator`): pairs as
 * `"en>es"` keys; create() rejects an unavailable pair with NotSupportedError, fires
 * `downloadprogress` (`loaded` 0, then 1) on its monitor for a downloadable one; translate()
 * resolves with `«target» text` and logs each input. Never imported by product code.
 */
export class FakeTranslator {
  static pairs = new Map<string, TranslatorAvailability>();
  static calls: string[] = [];

  static reset(): void {
    FakeTranslator.pairs = new Map();
    FakeTranslator.calls = [];
  }

  static availability(o: TranslatorLanguages): Promise<TranslatorAvailability> {
    return Promise.resolve(FakeTranslator.pairs.get(`${o.sourceLanguage}>${o.targetLanguage}`) ?? 'unavailable');
  }

  static async create(o: TranslatorLanguages & { monitor?: (m: EventTarget) => void }): Promise<FakeTranslator> {
    const pair = `${o.sourceLanguage}>${o.targetLanguage}`;
    const state = FakeTranslator.pairs.get(pair) ?? 'unavailable';
    if (state === 'unavailable') throw new DOMException('Unable to create translator for the given source and target language.', 'NotSupportedError');
    const monitor = new EventTarget();
    o.monitor?.(monitor);
    const progress = (loaded: number) => monitor.dispatchEvent(Object.assign(new Event('downloadprogress'), { loaded, total: 1 }));
    if (state !== 'available') {
      progress(0);
      await new Promise((r) => setTimeout(r, 10));
      FakeTranslator.pairs.set(pair, 'available');
    }
    progress(1);
    return new FakeTranslator(o.targetLanguage);
  }

  constructor(readonly targetLanguage: string) {}

  translate(text: string): Promise<string> {
    FakeTranslator.calls.push(text);
    return Promise.resolve(`«${this.targetLanguage}» ${text}`);
  }

  destroy(): void {}
}
