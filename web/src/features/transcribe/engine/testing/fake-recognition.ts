import type { OnDeviceAvailability, SpeechRecognitionLike, SpeechRecognitionOptions } from '../speech-recognition';

/**
 * A scripted recognizer with the standard interface, for unit tests: the test
 * plays Chrome's part (results, errors, end). Never imported by product code.
 */
export interface FakeResult {
  transcript: string;
  isFinal?: boolean;
  confidence?: number;
}

function resultList(items: FakeResult[]): SpeechRecognitionResultList {
  const results = items.map((r) => {
    const alternative = { transcript: r.transcript, confidence: r.confidence ?? (r.isFinal ? 0.92 : 0) };
    return Object.assign([alternative], { isFinal: r.isFinal ?? false, item: () => alternative });
  });
  return Object.assign(results, { item: (i: number) => results[i] }) as unknown as SpeechRecognitionResultList;
}

export class FakeRecognition implements SpeechRecognitionLike {
  static instances: FakeRecognition[] = [];
  /** The recognizer whose `end` handler is running, if any. */
  static endingNow: FakeRecognition | null = null;
  /** When set, start() throws InvalidStateError this many more times (a browser still holding the previous recognizer). */
  static busyStarts = 0;
  /** When set, stop() finalises pending interim text and ends (a microtask later), like Chrome. */
  static autoEndOnStop = false;

  /**
   * On-device language packs by language (Web Speech API draft): what `available({langs,
   * processLocally: true})` answers; a language not listed is 'unavailable'.
   */
  static packs = new Map<string, OnDeviceAvailability>();
  /** What the next install() resolves with (after `downloading`); the languages it was asked for are logged. */
  static installResult = true;
  static installs: string[][] = [];

  /** The draft's `SpeechRecognition.available(options)`: every language must be available for 'available'. */
  static available(options: SpeechRecognitionOptions): Promise<OnDeviceAvailability> {
    const { langs, processLocally = false } = options;
    if (langs.length === 0) return Promise.resolve('unavailable');
    if (!processLocally) return Promise.resolve('available');
    const order: OnDeviceAvailability[] = ['unavailable', 'downloadable', 'downloading', 'available'];
    const worst = Math.min(...langs.map((l) => order.indexOf(FakeRecognition.packs.get(l) ?? 'unavailable')));
    return Promise.resolve(order[worst]!);
  }

  /** The draft's `SpeechRecognition.install(options)`: resolves true once every pack is installed, false if any cannot be. */
  static install(options: SpeechRecognitionOptions): Promise<boolean> {
    FakeRecognition.installs.push([...options.langs]);
    const ok = options.langs.length > 0 && FakeRecognition.installResult && options.langs.every((l) => FakeRecognition.packs.has(l) && FakeRecognition.packs.get(l) !== 'unavailable');
    for (const l of options.langs) if (ok) FakeRecognition.packs.set(l, 'downloading');
    return new Promise((resolve) =>
      setTimeout(() => {
        if (ok) for (const l of options.langs) FakeRecognition.packs.set(l, 'available');
        resolve(ok);
      }, 0),
    );
  }

  static reset(): void {
    FakeRecognition.instances = [];
    FakeRecognition.packs = new Map();
    FakeRecognition.installResult = true;
    FakeRecognition.installs = [];
    FakeRecognition.autoEndOnStop = false;
    FakeRecognition.endingNow = null;
    FakeRecognition.busyStarts = 0;
  }

  static get current(): FakeRecognition {
    const rec = FakeRecognition.instances.at(-1);
    if (!rec) throw new Error('no recognizer was created');
    return rec;
  }

  lang = '';
  continuous = false;
  interimResults = false;
  maxAlternatives = 1;
  processLocally = false;
  onresult: ((event: SpeechRecognitionEvent) => void) | null = null;
  onerror: ((event: SpeechRecognitionErrorEvent) => void) | null = null;
  onend: ((event: Event) => void) | null = null;
  onstart: ((event: Event) => void) | null = null;

  started = false;
  ended = false;
  stopCalls = 0;
  abortCalls = 0;
  results: FakeResult[] = [];
  /** The recognizer in whose `end` handler start() was called (same task, no gap), if any. */
  startedDuringEndOf: FakeRecognition | null = null;

  constructor() {
    FakeRecognition.instances.push(this);
  }

  start(): void {
    if (this.started) throw new DOMException('recognition has already started', 'InvalidStateError');
    if (FakeRecognition.busyStarts > 0) {
      FakeRecognition.busyStarts -= 1;
      throw new DOMException('recognition is busy', 'InvalidStateError');
    }
    this.started = true;
    this.startedDuringEndOf = FakeRecognition.endingNow;
    this.onstart?.(new Event('start'));
  }

  stop(): void {
    this.stopCalls += 1;
    if (!FakeRecognition.autoEndOnStop) return;
    queueMicrotask(() => {
      const open = this.openIndex();
      if (open < this.results.length) this.final(this.results[open]!.transcript);
      this.end();
    });
  }

  abort(): void {
    this.abortCalls += 1;
    if (this.ended) return;
    queueMicrotask(() => {
      this.error('aborted');
      this.end();
    });
  }

  /** Replaces results from `resultIndex` on and dispatches a result event. */
  emit(resultIndex: number, items: FakeResult[]): void {
    this.results.splice(resultIndex, Number.POSITIVE_INFINITY, ...items);
    this.dispatch(resultIndex, this.results);
  }

  /** Dispatches exactly this event (for patterns such as Android's rebuilt lists). */
  dispatch(resultIndex: number, items: FakeResult[]): void {
    this.onresult?.({ resultIndex, results: resultList(items) } as unknown as SpeechRecognitionEvent);
  }

  /** The first result still interim (or the next index). */
  openIndex(): number {
    const i = this.results.findIndex((r) => !r.isFinal);
    return i === -1 ? this.results.length : i;
  }

  interim(transcript: string): void {
    this.emit(this.openIndex(), [{ transcript, isFinal: false }]);
  }

  final(transcript: string, confidence = 0.92): void {
    this.emit(this.openIndex(), [{ transcript, isFinal: true, confidence }]);
  }

  error(code: string): void {
    this.onerror?.({ error: code, message: '' } as unknown as SpeechRecognitionErrorEvent);
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    const outer = FakeRecognition.endingNow;
    FakeRecognition.endingNow = this;
    try {
      this.onend?.(new Event('end'));
    } finally {
      FakeRecognition.endingNow = outer;
    }
  }
}
