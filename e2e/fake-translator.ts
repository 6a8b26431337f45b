import type { BrowserContext } from 'playwright-core';

/**
 * A standards-shaped on-device Translator (`self.Translator`, the Translator API draft) for the
 * browser journeys, installed before any page script runs (Chromium's own needs Chrome's model
 * downloads). The product uses only `self.Translator`, feature-detected.
 *
 * - `Translator.availability({sourceLanguage, targetLanguage})` answers from `__translator.pairs`
 *   (keys `"en>es"`; a pair not listed is 'unavailable');
 * - `Translator.create({sourceLanguage, targetLanguage, monitor, signal})`: an unavailable pair
 *   rejects with NotSupportedError; a downloadable one needs a user gesture (else NotAllowedError),
 *   then calls `monitor(m)` and fires `downloadprogress` ProgressEvents on `m` (`loaded` 0, 0.5, 1
 *   of `total` 1) over `downloadMs` (or, while `holdDownloads`, from half until `finishDownloads()`)
 *   before it resolves; the pair is then 'available';
 * - `translator.translate(text)` resolves with `«target» text` after `translateMs` (each call
 *   logged in `__translator.calls`), and rejects once destroyed.
 */

export interface TranslatorControl {
  pairs: Record<string, 'available' | 'downloadable' | 'downloading' | 'unavailable'>;
  downloadMs: number;
  /** While true, a download stops at half until finishDownloads() (a test looks at the progress as long as it needs). */
  holdDownloads: boolean;
  /** Ends every held download. */
  finishDownloads: () => void;
  translateMs: number;
  /** Every translate() call: the pair and the input. */
  calls: { pair: string; text: string }[];
  /** Every create() call: the pair, and whether it came with a user gesture. */
  creates: { pair: string; gesture: boolean }[];
}

declare global {
  interface Window {
    __translator: TranslatorControl;
  }
}

function installFakeTranslator(pairs: TranslatorControl['pairs']): void {
  const heldDownloads: (() => void)[] = [];
  const control: TranslatorControl = {
    pairs: { ...pairs },
    downloadMs: 300,
    holdDownloads: false,
    finishDownloads: () => {
      for (const finish of heldDownloads.splice(0)) finish();
    },
    translateMs: 20,
    calls: [],
    creates: [],
  };
  const key = (o: { sourceLanguage: string; targetLanguage: string }) => {
    if (typeof o?.sourceLanguage !== 'string' || typeof o?.targetLanguage !== 'string') throw new TypeError("Failed to read the 'sourceLanguage' property from 'TranslatorCreateCoreOptions'");
    return `${o.sourceLanguage}>${o.targetLanguage}`;
  };

  class FakeTranslator {
    private destroyed = false;
    readonly inputQuota = 1_000_000;
    constructor(
      readonly sourceLanguage: string,
      readonly targetLanguage: string,
    ) {}

    static availability(o: { sourceLanguage: string; targetLanguage: string }) {
      return Promise.resolve(control.pairs[key(o)] ?? 'unavailable');
    }

    static async create(o: { sourceLanguage: string; targetLanguage: string; monitor?: (m: EventTarget) => void; signal?: AbortSignal }) {
      const pair = key(o);
      const state = control.pairs[pair] ?? 'unavailable';
      const gesture = navigator.userActivation?.isActive ?? false;
      control.creates.push({ pair, gesture });
      if (state === 'unavailable') throw new DOMException('Unable to create translator for the given source and target language.', 'NotSupportedError');
      if (state === 'downloadable' && !gesture) throw new DOMException('Requires a user gesture when availability is "downloadable".', 'NotAllowedError');
      const monitor = new EventTarget();
      o.monitor?.(monitor);
      const progress = (loaded: number) => monitor.dispatchEvent(new ProgressEvent('downloadprogress', { loaded, total: 1, lengthComputable: true }));
      if (state !== 'available') {
        control.pairs[pair] = 'downloading';
        progress(0);
        await new Promise((r) => setTimeout(r, control.downloadMs / 2));
        progress(0.5);
        await new Promise<void>((r) => (control.holdDownloads ? heldDownloads.push(r) : setTimeout(r, control.downloadMs / 2)));
        control.pairs[pair] = 'available';
      }
      progress(1);
      return new FakeTranslator(o.sourceLanguage, o.targetLanguage);
    }

    translate(text: string) {
      if (this.destroyed) return Promise.reject(new DOMException('The translator has been destroyed.', 'InvalidStateError'));
      control.calls.push({ pair: `${this.sourceLanguage}>${this.targetLanguage}`, text });
      return new Promise<string>((resolve) => setTimeout(() => resolve(`«${this.targetLanguage}» ${text}`), control.translateMs));
    }

    destroy() {
      this.destroyed = true;
    }
  }

  const win = window as unknown as Record<string, unknown>;
  win.Translator = FakeTranslator;
  win.__translator = control;
}

/** Installs the fake Translator in every page of the context, before the page's own scripts. */
export async function installTranslator(context: BrowserContext, pairs: TranslatorControl['pairs']): Promise<void> {
  await context.addInitScript({ content: `(() => {\nconst __name = (target) => target;\n(${installFakeTranslator.toString()})(${JSON.stringify(pairs)});\n})();` });
}

/** Removes the browser's own Translator, if any (a browser without the API: phones today, Safari, Firefox). */
export async function removeTranslator(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    Object.defineProperty(window, 'Translator', { value: undefined, configurable: true });
  });
}
