import { RECOGNITION_RESTART_MS } from '@app/shared/constants';
import type { Segment } from '@app/shared/schemas/transcriptions';
import { FinalDeduper } from './final-deduper';
import { SessionClock } from './session-clock';
import type { SpeechRecognitionConstructor, SpeechRecognitionLike } from './speech-recognition';

/**
 * The live recognition engine: one interface (start, pause, resume, stop,
 * events) over the standard `SpeechRecognition`, hardened against what real
 * Chrome does:
 *
 * - a recognizer ends by itself every so often (every few seconds on Android,
 *   after silence on desktop): while recording, a new one starts inside the
 *   `end` handler, in the same task, so no speech falls between the two (never
 *   from `onerror`), with any pending interim text committed as final first.
 *   The Web Speech API allows start() there; a start() that still throws
 *   InvalidStateError is tried again in the next task, then after
 *   RECOGNITION_RESTART_MS;
 * - `no-speech`, `aborted` (not caused by us) and `network` restart; network
 *   with an exponential back-off and a retry cap, after which the engine goes
 *   idle and reports `network`. A recognizer that ends without a result right
 *   after one that also had none (repeated `no-speech` or `aborted`) restarts
 *   RECOGNITION_RESTART_MS later, so a recognizer that keeps failing at once
 *   never spins. Every other error ends the session at once;
 * - `stop()` keeps listening until `end`, so the last final result is kept;
 * - Android: finals with confidence 0 are interim; repeated and cumulative
 *   finals are de-duplicated (FinalDeduper);
 * - results are read from `resultIndex`; a final already committed at an index
 *   is never committed again;
 * - segments carry `{text, startMs, endMs}` on a session clock without pauses;
 * - `processLocally` (Web Speech API draft) asks for on-device recognition;
 *   setProcessLocally() switches recognizers mid-session the way a restart does:
 *   the old recognizer's pending interim text is committed, its later events
 *   are ignored, and the new one starts in the same task, so nothing is lost
 *   or repeated.
 */

export type EngineState = 'idle' | 'listening' | 'pausing' | 'paused' | 'stopping';

/** Errors after which recognition starts again by itself. */
const TRANSIENT_ERRORS = new Set(['no-speech', 'aborted', 'network']);

export interface EngineListener {
  /** A final segment, in order, never repeated. */
  onFinal(segment: Segment): void;
  /** The text not final yet (empty when there is none). */
  onInterim(text: string): void;
  /**
   * Recognition stopped for good because of `code` (an error code of the Web
   * Speech API, or 'start-failed'). The engine is idle; pending text was committed.
   */
  onFatal(code: string): void;
  /** A network error: retry `attempt` of `max` starts in `delayMs`. */
  onRetry?(attempt: number, max: number, delayMs: number): void;
}

export interface EngineOptions {
  Recognition: SpeechRecognitionConstructor;
  listener: EngineListener;
  now?: () => number;
  restartDelayMs?: number;
  /** Network back-off: first delay, doubled each retry up to maxDelayMs; at most maxRetries in a row. */
  network?: { baseDelayMs: number; maxDelayMs: number; maxRetries: number };
  /** How long stop/pause wait for `end` before giving up on the recognizer. */
  stopTimeoutMs?: number;
  /** Recognize on this device (`processLocally`) from the first recognizer on. */
  processLocally?: boolean;
}

/** Speech rate used to date the start of a final that arrived without interim results. */
const MS_PER_CHAR_ESTIMATE = 60;

interface Slot {
  text: string;
  firstSeenMs: number;
}

/** One recognizer instance, from start to end. Events from an old run are ignored. */
interface Run {
  rec: SpeechRecognitionLike;
  /** Interim results by index. */
  slots: Map<number, Slot>;
  /** Normalised text of the final committed at each index. */
  committed: Map<number, string>;
  /** The error reported before `end`, if any. */
  error: string | undefined;
  /** We called abort(): its `aborted` error is ours. */
  abortedByUs: boolean;
  /** A result (interim or final) arrived. */
  heard: boolean;
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

export class RecognitionEngine {
  private state: EngineState = 'idle';
  private run: Run | null = null;
  private lang = 'en-US';
  private readonly clock: SessionClock;
  private readonly deduper = new FinalDeduper();
  private readonly restartDelayMs: number;
  private readonly network: { baseDelayMs: number; maxDelayMs: number; maxRetries: number };
  private readonly stopTimeoutMs: number;
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  private stopTimer: ReturnType<typeof setTimeout> | undefined;
  private networkRetries = 0;
  /** Recognizers in a row that ended without a single result. */
  private emptyRuns = 0;
  private lastEndMs = 0;
  private interim = '';
  /** Resolves the pending stop() or pause(). */
  private settle: (() => void) | undefined;
  private settled: Promise<void> | undefined;
  /** resume() asked for while a pause was still finishing. */
  private resumeAfterPause = false;
  private processLocally: boolean;

  constructor(private readonly options: EngineOptions) {
    this.processLocally = options.processLocally ?? false;
    this.clock = new SessionClock(options.now);
    this.restartDelayMs = options.restartDelayMs ?? RECOGNITION_RESTART_MS;
    this.network = options.network ?? { baseDelayMs: 500, maxDelayMs: 8_000, maxRetries: 5 };
    this.stopTimeoutMs = options.stopTimeoutMs ?? 3_000;
  }

  get currentState(): EngineState {
    return this.state;
  }

  /** Whether recognizers are asked to run on this device. */
  get local(): boolean {
    return this.processLocally;
  }

  /**
   * Switches between on-device and the browser's default recognizer. While listening, the
   * running recognizer is replaced at once (its interim text committed first, as at any restart);
   * otherwise the next recognizer uses the new mode.
   */
  setProcessLocally(local: boolean): void {
    if (local === this.processLocally) return;
    this.processLocally = local;
    if (this.state !== 'listening') return;
    clearTimeout(this.restartTimer);
    const run = this.run;
    this.run = null;
    if (run) {
      run.abortedByUs = true;
      this.commitPending(run);
      try {
        run.rec.abort();
      } catch {
        // already ended
      }
    }
    this.networkRetries = 0;
    this.emptyRuns = 0;
    this.startRun([0, this.restartDelayMs]);
  }

  /** Milliseconds of recording so far, pauses excluded. */
  elapsedMs(): number {
    return this.clock.elapsed();
  }

  /**
   * Starts a new session in `lang`; the clock starts at `offsetMs` (0, or the
   * duration of a restored transcript that continues). Drops any current session.
   */
  start(lang: string, offsetMs = 0): void {
    this.abort();
    this.lang = lang;
    this.deduper.reset();
    this.clock.reset(offsetMs);
    this.lastEndMs = offsetMs;
    this.networkRetries = 0;
    this.emptyRuns = 0;
    this.state = 'listening';
    this.clock.run();
    this.startRun();
  }

  /** Stops listening (keeping the last final result) and holds the clock. */
  pause(): Promise<void> {
    if (this.state === 'listening') return this.finish('pausing');
    return this.settled ?? Promise.resolve();
  }

  resume(): void {
    if (this.state === 'pausing') {
      this.resumeAfterPause = true;
      return;
    }
    if (this.state !== 'paused') return;
    this.state = 'listening';
    this.networkRetries = 0;
    this.emptyRuns = 0;
    this.clock.run();
    this.startRun();
  }

  /** Ends the session; resolves once the recognizer has delivered its last result and ended. */
  stop(): Promise<void> {
    this.resumeAfterPause = false;
    if (this.state === 'listening') return this.finish('stopping');
    if (this.state === 'pausing') {
      this.state = 'stopping';
      return this.settled ?? Promise.resolve();
    }
    if (this.state === 'paused') this.state = 'idle';
    return this.settled ?? Promise.resolve();
  }

  /** Drops the session at once, without waiting for results (clear, new transcription, unmount). */
  abort(): void {
    clearTimeout(this.restartTimer);
    clearTimeout(this.stopTimer);
    this.resumeAfterPause = false;
    const run = this.run;
    this.run = null;
    if (run) {
      run.abortedByUs = true;
      try {
        run.rec.abort();
      } catch {
        // already ended
      }
    }
    this.clock.hold();
    this.setInterim('');
    this.state = 'idle';
    this.resolveSettled();
  }

  private finish(next: 'pausing' | 'stopping'): Promise<void> {
    this.state = next;
    this.clock.hold();
    clearTimeout(this.restartTimer);
    this.settled = new Promise<void>((resolve) => (this.settle = resolve));
    const run = this.run;
    if (!run) {
      // Between two recognizers (a restart was pending): nothing to wait for.
      this.afterEnd();
      return this.settled;
    }
    try {
      run.rec.stop();
    } catch {
      this.endRun(run);
      return this.settled;
    }
    // A recognizer that never sends `end` must not hold the session forever.
    this.stopTimer = setTimeout(() => {
      if (this.run !== run) return;
      run.abortedByUs = true;
      try {
        run.rec.abort();
      } catch {
        // ignore
      }
      this.endRun(run);
    }, this.stopTimeoutMs);
    return this.settled;
  }

  /**
   * Creates and starts a recognizer. `retryDelays`: when start() throws InvalidStateError (the
   * browser still holds the previous recognizer), try again after each of these delays in turn
   * before giving up; a start the user asked for has none.
   */
  private startRun(retryDelays: readonly number[] = []): void {
    let rec: SpeechRecognitionLike;
    try {
      rec = new this.options.Recognition();
    } catch {
      this.fail('start-failed');
      return;
    }
    const run: Run = { rec, slots: new Map(), committed: new Map(), error: undefined, abortedByUs: false, heard: false };
    rec.lang = this.lang;
    rec.continuous = true;
    rec.interimResults = true;
    rec.maxAlternatives = 1;
    if (this.processLocally || 'processLocally' in rec) rec.processLocally = this.processLocally;
    rec.onresult = (event) => {
      if (this.run === run) this.onResult(run, event);
    };
    rec.onerror = (event) => {
      if (this.run === run) this.onError(run, event.error);
    };
    rec.onend = () => {
      if (this.run === run) this.endRun(run);
    };
    this.run = run;
    this.deduper.newRun();
    try {
      rec.start();
    } catch (err) {
      this.run = null;
      const [delay, ...later] = retryDelays;
      if (delay !== undefined && err instanceof DOMException && err.name === 'InvalidStateError') {
        this.scheduleRestart(delay, later);
        return;
      }
      this.fail(err instanceof DOMException && err.name === 'NotAllowedError' ? 'not-allowed' : 'start-failed');
    }
  }

  private onResult(run: Run, event: SpeechRecognitionEvent): void {
    const { results } = event;
    // Any result means the service is reachable again.
    this.networkRetries = 0;
    this.emptyRuns = 0;
    run.heard = true;
    const now = this.clock.elapsed();
    for (let i = Math.max(0, event.resultIndex); i < results.length; i++) {
      const result = results[i];
      const alternative = result?.[0];
      if (!result || !alternative) continue;
      const text = alternative.transcript ?? '';
      // Android Chrome marks some interim results final with confidence 0.
      const isFinal = result.isFinal && alternative.confidence !== 0;
      if (isFinal) {
        const firstSeen = run.slots.get(i)?.firstSeenMs;
        run.slots.delete(i);
        const normalised = collapse(text);
        if (run.committed.get(i) === normalised) continue;
        run.committed.set(i, normalised);
        this.commit(text, firstSeen, now);
      } else {
        const slot = run.slots.get(i);
        if (slot) slot.text = text;
        else run.slots.set(i, { text, firstSeenMs: now });
      }
    }
    // A shorter list (Android rebuilds it) drops interim results past its end.
    for (const index of run.slots.keys()) if (index >= results.length) run.slots.delete(index);
    this.setInterim(this.pendingText(run));
  }

  private onError(run: Run, code: string): void {
    run.error = code;
    if (code === 'aborted' && run.abortedByUs) return;
    if (TRANSIENT_ERRORS.has(code)) return; // handled at `end`
    // Fatal: commit what was heard, drop the recognizer, report.
    this.run = null;
    run.abortedByUs = true;
    this.commitPending(run);
    try {
      run.rec.abort();
    } catch {
      // ignore
    }
    this.fail(code);
  }

  /** The recognizer ended (by itself, after stop(), or after an error). */
  private endRun(run: Run): void {
    this.run = null;
    clearTimeout(this.stopTimer);
    this.commitPending(run);
    if (this.state !== 'listening') {
      this.afterEnd();
      return;
    }
    this.emptyRuns = run.heard ? 0 : this.emptyRuns + 1;
    let delay = this.emptyRuns > 1 ? this.restartDelayMs : 0;
    if (run.error === 'network') {
      this.networkRetries += 1;
      if (this.networkRetries > this.network.maxRetries) {
        this.fail('network');
        return;
      }
      delay = Math.min(this.network.maxDelayMs, this.network.baseDelayMs * 2 ** (this.networkRetries - 1));
      this.options.listener.onRetry?.(this.networkRetries, this.network.maxRetries, delay);
    }
    if (delay === 0) {
      // In the `end` handler's own task: the next recognizer listens at once.
      this.startRun([0, this.restartDelayMs]);
      return;
    }
    this.scheduleRestart(delay, [this.restartDelayMs]);
  }

  private scheduleRestart(delay: number, retryDelays: readonly number[]): void {
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => {
      if (this.state === 'listening' && !this.run) this.startRun(retryDelays);
    }, delay);
  }

  /** After the recognizer of a pause or stop has ended. */
  private afterEnd(): void {
    if (this.state === 'pausing') {
      this.state = 'paused';
      this.resolveSettled();
      if (this.resumeAfterPause) {
        this.resumeAfterPause = false;
        this.resume();
      }
      return;
    }
    if (this.state === 'stopping') this.state = 'idle';
    this.resolveSettled();
  }

  private resolveSettled(): void {
    const settle = this.settle;
    this.settle = undefined;
    this.settled = undefined;
    settle?.();
  }

  private fail(code: string): void {
    clearTimeout(this.restartTimer);
    clearTimeout(this.stopTimer);
    this.clock.hold();
    this.setInterim('');
    this.state = 'idle';
    this.resumeAfterPause = false;
    this.resolveSettled();
    this.options.listener.onFatal(code);
  }

  private pendingText(run: Run): string {
    if (run.slots.size === 0) return '';
    const indexes = [...run.slots.keys()].sort((a, b) => a - b);
    return collapse(indexes.map((i) => run.slots.get(i)!.text).join(' '));
  }

  /** Interim text becomes final: at the end of a recognizer, nothing heard is dropped. */
  private commitPending(run: Run): void {
    if (run.slots.size > 0) {
      const now = this.clock.elapsed();
      const indexes = [...run.slots.keys()].sort((a, b) => a - b);
      for (const i of indexes) {
        const slot = run.slots.get(i)!;
        this.commit(slot.text, slot.firstSeenMs, now);
      }
      run.slots.clear();
    }
    this.setInterim('');
  }

  private commit(text: string, firstSeenMs: number | undefined, now: number): void {
    const clean = collapse(text);
    if (!clean) return;
    const piece = this.deduper.accept(clean, now);
    if (!piece) return;
    const endMs = Math.max(now, this.lastEndMs);
    const estimated = firstSeenMs ?? endMs - Math.min(10_000, piece.length * MS_PER_CHAR_ESTIMATE);
    const startMs = Math.min(endMs, Math.max(this.lastEndMs, estimated));
    this.lastEndMs = endMs;
    this.options.listener.onFinal({ text: piece, startMs, endMs });
  }

  private setInterim(text: string): void {
    if (text === this.interim) return;
    this.interim = text;
    this.options.listener.onInterim(text);
  }
}
