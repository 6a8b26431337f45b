import type { BrowserContext } from 'playwright-core';

/**
 * A scripted, standards-shaped speech recognizer for browser tests and the
 * benchmark, installed before any page script runs. Chromium's real
 * `webkitSpeechRecognition` needs Google's service, so tests replace it; the
 * product still uses only `window.SpeechRecognition || window.webkitSpeechRecognition`.
 *
 * The test plays Chrome's part through `window.__speech`:
 *   __speech.interim('hel') / .final('hello') / .emit(resultIndex, items)
 *   __speech.error('network') (error, then end, like Chrome) / .end()
 * Like Chrome, start() fires start/audiostart; stop() finalises pending interim
 * text, then fires end; abort() fires error 'aborted', then end. Like Chrome, a
 * recognizer may be started from another's `end` handler; the log says so
 * (`duringEndOf`) and when each call came (`at`).
 *
 * With `onDevice` (installSpeech's option), the recognizer also has the Web Speech API draft's
 * on-device members: `SpeechRecognition.available({langs, processLocally})` answers from
 * `__speech.packs` ('available', 'downloadable', 'downloading' or 'unavailable'; an empty `langs`
 * is 'unavailable'), `SpeechRecognition.install({langs})` needs a user gesture (else it rejects
 * with NotAllowedError, as Chrome does), moves each downloadable pack through 'downloading'
 * (`installMs`, or until `finishInstalls()` while `holdInstalls`) to 'available' and resolves true, or false if one cannot be installed; a
 * recognizer with `processLocally = true` whose language is not available fails at start with
 * `language-not-supported` (or `__speech.onDeviceError`), error then end, like Chrome; and cloud
 * recognizers (processLocally false) need the network: offline, they fail with `network`. (Without
 * `onDevice` the fake keeps listening offline, as the journeys that script their own errors expect.)
 */

export interface FakeResult {
  transcript: string;
  isFinal?: boolean;
  confidence?: number;
}

export interface SpeechLogEntry {
  type: 'new' | 'start' | 'stop' | 'abort' | 'end';
  id: number;
  lang?: string;
  /** For `start`: whether the recognizer was asked to run on the device. */
  processLocally?: boolean;
  /** performance.now() when the page made the call (for `end`: just before the end event was dispatched). */
  at: number;
  /** For `start`: the recognizer whose `end` handler was running when start() was called (the same task), if any. */
  duringEndOf?: number;
}

export interface SpeechControl {
  /** Every call the page made, in order. */
  log: SpeechLogEntry[];
  /** Recognizers started so far. */
  starts: number;
  /** The started recognizer that has not ended, if any. */
  readonly active: { id: number; lang: string; continuous: boolean; interimResults: boolean; processLocally: boolean } | null;
  /** On-device language packs by language (only with `onDevice`). */
  packs: Record<string, 'available' | 'downloadable' | 'downloading' | 'unavailable'>;
  /** How long an install downloads. */
  installMs: number;
  /** While true, an install downloads until finishInstalls() (a test looks at the download as long as it needs). */
  holdInstalls: boolean;
  /** Ends every held install. */
  finishInstalls: () => void;
  /** The error an on-device recognizer without its pack fails with. */
  onDeviceError: string;
  /** Every install() call: its languages and whether it came with a user gesture. */
  installs: { langs: string[]; gesture: boolean }[];
  /** When false, stop() only records the call; the test sends the last result and end() itself. */
  autoEndOnStop: boolean;
  /** performance.now() just before the last result event was handed to the page (for the benchmark). */
  lastResultAt: number;
  interim(transcript: string): void;
  final(transcript: string, confidence?: number): void;
  emit(resultIndex: number, items: FakeResult[]): void;
  error(code: string, thenEnd?: boolean): void;
  end(): void;
}

declare global {
  interface Window {
    __speech: SpeechControl;
  }
}

/** Runs in the page (serialised by Playwright): no imports, no closures over test code. */
function installFakeSpeech(options: { onDevice: boolean }): void {
  type Result = { transcript: string; isFinal: boolean; confidence: number };
  const win = window as unknown as Record<string, unknown>;

  const shaped = new WeakMap<Result, Record<string | number, unknown>>();
  function shape(r: Result) {
    let result = shaped.get(r);
    if (!result) {
      const alternative = { transcript: r.transcript, confidence: r.confidence };
      result = { 0: alternative, length: 1, isFinal: r.isFinal, item: () => alternative };
      shaped.set(r, result);
    }
    return result;
  }

  /**
   * The event's result list, read by index like Chrome's native list: each access costs O(1),
   * however long the session's list has grown (a copy per event would charge the page for the
   * fake's own work). Valid while the event is handled.
   */
  function resultList(items: Result[]) {
    const length = items.length;
    const at = (i: number) => (Number.isInteger(i) && i >= 0 && i < length ? shape(items[i]!) : null);
    return new Proxy({} as Record<string | number, unknown>, {
      get: (_target, key) => {
        if (key === 'length') return length;
        if (key === 'item') return (i: number) => at(i);
        if (typeof key === 'string' && /^\d+$/.test(key)) return at(Number(key)) ?? undefined;
        return undefined;
      },
    });
  }

  let nextId = 1;
  let current: Fake | null = null;
  /** The recognizer whose end event is being dispatched, if any. */
  let ending: Fake | null = null;

  class Fake extends EventTarget {
    lang = '';
    continuous = false;
    interimResults = false;
    maxAlternatives = 1;
    grammars = null;
    processLocally = false;
    onstart: ((e: Event) => void) | null = null;
    onaudiostart: ((e: Event) => void) | null = null;
    onsoundstart: ((e: Event) => void) | null = null;
    onspeechstart: ((e: Event) => void) | null = null;
    onspeechend: ((e: Event) => void) | null = null;
    onsoundend: ((e: Event) => void) | null = null;
    onaudioend: ((e: Event) => void) | null = null;
    onresult: ((e: Event) => void) | null = null;
    onnomatch: ((e: Event) => void) | null = null;
    onerror: ((e: Event) => void) | null = null;
    onend: ((e: Event) => void) | null = null;
    readonly id = nextId++;
    started = false;
    ended = false;
    results: Result[] = [];

    constructor() {
      super();
      control.log.push({ type: 'new', id: this.id, at: performance.now() });
    }

    fire(type: string, extra: Record<string, unknown> = {}): void {
      const event = new Event(type);
      for (const [k, v] of Object.entries(extra)) Object.defineProperty(event, k, { value: v });
      if (type === 'result') control.lastResultAt = performance.now();
      const handler = (this as unknown as Record<string, unknown>)[`on${type}`];
      if (typeof handler === 'function') handler.call(this, event);
      this.dispatchEvent(event);
    }

    start(): void {
      if (this.started) throw new DOMException("Failed to execute 'start' on 'SpeechRecognition': recognition has already started.", 'InvalidStateError');
      this.started = true;
      // eslint-disable-next-line @typescript-eslint/no-this-alias -- the fake records which instance is running, for the test's controls
      current = this;
      control.starts += 1;
      control.log.push({ type: 'start', id: this.id, lang: this.lang, processLocally: this.processLocally, at: performance.now(), duringEndOf: ending?.id });
      setTimeout(() => {
        if (this.ended) return;
        if (this.processLocally && control.packs[this.lang] !== 'available') return this.fail(control.onDeviceError);
        if (options.onDevice && !this.processLocally && !navigator.onLine) return this.fail('network');
        this.fire('start');
        this.fire('audiostart');
      }, 0);
    }

    stop(): void {
      control.log.push({ type: 'stop', id: this.id, at: performance.now() });
      if (!control.autoEndOnStop || this.ended) return;
      setTimeout(() => {
        const open = this.results.findIndex((r) => !r.isFinal);
        if (open !== -1) this.emit(open, [{ transcript: this.results[open]!.transcript, isFinal: true, confidence: 0.9 }]);
        this.fire('audioend');
        this.finish();
      }, 30);
    }

    abort(): void {
      control.log.push({ type: 'abort', id: this.id, at: performance.now() });
      if (this.ended) return;
      setTimeout(() => {
        if (this.ended) return;
        this.fire('error', { error: 'aborted', message: '' });
        this.finish();
      }, 0);
    }

    /** Error, then end (Chrome's order). */
    fail(code: string): void {
      this.fire('error', { error: code, message: '' });
      this.finish();
    }

    emit(resultIndex: number, items: Result[]): void {
      this.results.splice(resultIndex, Number.POSITIVE_INFINITY, ...items);
      this.fire('result', { resultIndex, results: resultList(this.results) });
    }

    finish(): void {
      if (this.ended) return;
      this.ended = true;
      if (current === this) current = null;
      control.log.push({ type: 'end', id: this.id, at: performance.now() });
      const outer = ending;
      // eslint-disable-next-line @typescript-eslint/no-this-alias -- the fake records whose end handler is running, for the test's controls
      ending = this;
      try {
        this.fire('end');
      } finally {
        ending = outer;
      }
    }
  }

  const need = (): Fake => {
    if (!current) throw new Error('No active speech recognizer');
    return current;
  };
  const openIndex = (rec: Fake) => {
    const i = rec.results.findIndex((r) => !r.isFinal);
    return i === -1 ? rec.results.length : i;
  };

  const heldInstalls: (() => void)[] = [];
  const control = {
    log: [] as { type: string; id: number; lang?: string; processLocally?: boolean; at: number; duringEndOf?: number }[],
    starts: 0,
    autoEndOnStop: true,
    packs: {} as Record<string, 'available' | 'downloadable' | 'downloading' | 'unavailable'>,
    installMs: 300,
    holdInstalls: false,
    finishInstalls() {
      for (const finish of heldInstalls.splice(0)) finish();
    },
    onDeviceError: 'language-not-supported',
    installs: [] as { langs: string[]; gesture: boolean }[],
    lastResultAt: 0,
    get active() {
      return current
        ? { id: current.id, lang: current.lang, continuous: current.continuous, interimResults: current.interimResults, processLocally: current.processLocally }
        : null;
    },
    interim(transcript: string) {
      const rec = need();
      rec.emit(openIndex(rec), [{ transcript, isFinal: false, confidence: 0 }]);
    },
    final(transcript: string, confidence = 0.9) {
      const rec = need();
      rec.emit(openIndex(rec), [{ transcript, isFinal: true, confidence }]);
    },
    emit(resultIndex: number, items: { transcript: string; isFinal?: boolean; confidence?: number }[]) {
      need().emit(
        resultIndex,
        items.map((r) => ({ transcript: r.transcript, isFinal: r.isFinal ?? false, confidence: r.confidence ?? (r.isFinal ? 0.9 : 0) })),
      );
    },
    error(code: string, thenEnd = true) {
      const rec = need();
      rec.fire('error', { error: code, message: '' });
      if (thenEnd) setTimeout(() => rec.finish(), 0);
    },
    end() {
      need().finish();
    },
  };

  if (options.onDevice) {
    // Cloud recognition needs the network: going offline fails the cloud recognizer, as in Chrome.
    window.addEventListener('offline', () => {
      if (current && !current.processLocally && !current.ended) current.fail('network');
    });

    const langsOf = (opts: unknown): string[] => {
      const langs = (opts as { langs?: unknown } | undefined)?.langs;
      if (!Array.isArray(langs) || langs.some((l) => typeof l !== 'string')) throw new TypeError("Failed to read the 'langs' property from 'SpeechRecognitionOptions'");
      return langs as string[];
    };
    const order = ['unavailable', 'downloadable', 'downloading', 'available'] as const;
    Object.assign(Fake, {
      available(opts: { langs: string[]; processLocally?: boolean }) {
        const langs = langsOf(opts);
        if (langs.length === 0) return Promise.resolve('unavailable');
        if (!opts.processLocally) return Promise.resolve('available');
        const worst = Math.min(...langs.map((l) => order.indexOf(control.packs[l] ?? 'unavailable')));
        return Promise.resolve(order[worst]);
      },
      install(opts: { langs: string[] }) {
        const langs = langsOf(opts);
        const gesture = navigator.userActivation?.isActive ?? false;
        control.installs.push({ langs, gesture });
        if (!gesture) return Promise.reject(new DOMException('install() requires a user gesture.', 'NotAllowedError'));
        const ok = langs.length > 0 && langs.every((l) => control.packs[l] !== undefined && control.packs[l] !== 'unavailable');
        if (!ok) return Promise.resolve(false);
        for (const l of langs) if (control.packs[l] !== 'available') control.packs[l] = 'downloading';
        return new Promise((resolve) => {
          const finish = () => {
            for (const l of langs) control.packs[l] = 'available';
            resolve(true);
          };
          if (control.holdInstalls) heldInstalls.push(finish);
          else setTimeout(finish, control.installMs);
        });
      },
    });
  }

  win.__speech = control;
  win.SpeechRecognition = Fake;
  win.webkitSpeechRecognition = Fake;
}

/**
 * Installs the fake in every page of the context, before the page's own scripts. `onDevice`: with
 * the draft's on-device members (`available`, `install`, `processLocally`), its language packs
 * starting as given.
 */
export async function installSpeech(context: BrowserContext, options: { onDevice?: Record<string, 'available' | 'downloadable' | 'unavailable'> } = {}): Promise<void> {
  const packs = JSON.stringify(options.onDevice ?? {});
  // As source text: a transpiler that keeps names (tsx) wraps functions in a `__name` helper the page lacks.
  await context.addInitScript({
    content: `(() => {\nconst __name = (target) => target;\n(${installFakeSpeech.toString()})(${JSON.stringify({ onDevice: options.onDevice !== undefined })});\nObject.assign(window.__speech.packs, ${packs});\n})();`,
  });
}

/** Removes speech recognition entirely (an unsupported browser). */
export async function removeSpeech(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const win = window as unknown as Record<string, unknown>;
    delete win.SpeechRecognition;
    delete win.webkitSpeechRecognition;
    Object.defineProperty(window, 'SpeechRecognition', { value: undefined, configurable: true });
    Object.defineProperty(window, 'webkitSpeechRecognition', { value: undefined, configurable: true });
  });
}
