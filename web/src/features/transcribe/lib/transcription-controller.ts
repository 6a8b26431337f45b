import type { RecognitionLanguage } from '@app/shared/constants';
import { DEFAULT_CORRECTIONS } from '@app/shared/constants';
import type { CorrectionSettings } from '@app/shared/schemas/corrections';
import { loadProfanityWords } from '../../../lib/profanity-words';
import type { RecognitionEngine } from '../engine/recognition-engine';
import type { SpeechRecognitionConstructor } from '../engine/speech-recognition';
import type { AutosaveEngine } from '../autosave/autosave-engine';
import { hasQueuedAutosave } from '../autosave/queue-key';
import type { RecoveredTranscript, RecoveryStore } from './recovery';
import { hasRecoveryMarker } from './recovery-marker';
import { ResultCorrections, type WordsLoader } from './result-corrections';
import { separatorFor, TranscriptStore } from './transcript-store';

/**
 * The transcription card's state machine (ready, recording, paused, stopped), outside React:
 *
 *   ready --start--> recording --pause--> paused --resume--> recording
 *   recording|paused --stop--> stopped --start (confirm if text)--> recording
 *   any --clear--> ready
 *
 * It wires the engine to the transcript, device storage (recovery) and the
 * server autosave, and enforces the visitor limit. The engine and recovery
 * code (the "runtime") load on the first start, or earlier on intent; the
 * autosave engine, for signed-in users only, loads then too (or at once when
 * earlier pages left text queued), and the session it is asked to open
 * while it loads is opened with the transcript so far once it has loaded.
 */

/** Longest a start waits for a signed-in user's corrections settings before it uses the defaults. */
const SETTINGS_WAIT_MS = 1_500;

export type CardStatus = 'ready' | 'recording' | 'paused' | 'stopped';

export interface ControllerSnapshot {
  status: CardStatus;
  /** The language chosen for the next session (or the one under way). */
  language: RecognitionLanguage;
  /** The language the transcript on the card was recorded in; null when there is none. */
  sessionLanguage: RecognitionLanguage | null;
  /** The transcript came back from device storage and has not been resumed yet. */
  restored: boolean;
  /** A network error is being retried: which attempt of how many. */
  reconnecting: { attempt: number; max: number } | null;
  /** The server's id of the automatic transcription being recorded, once it has one (live sharing needs it). */
  sessionId: string | null;
}

/**
 * Which recognizer a session uses, decided outside the controller (the on-device panel's state,
 * loaded only where the browser has on-device recognition): the controller asks it at each new
 * engine, on a network error and on a fatal error.
 */
export interface RecognizerPolicy {
  /** Recognizers run on this device (`processLocally`). */
  readonly local: boolean;
  /** The cloud recognizer lost the network: true when recognition moved to the device instead of retrying. */
  networkLost(): boolean;
  /** The session pauses, keeping its text, instead of ending on this error (on-device recognition missing). */
  pausesOn(code: string): boolean;
}

export type Notice = { kind: 'error'; code: string } | { kind: 'time-limit' };

export interface Runtime {
  RecognitionEngine: typeof RecognitionEngine;
  createRecoveryStore: () => RecoveryStore;
}

export interface ControllerOptions {
  Recognition: SpeechRecognitionConstructor | undefined;
  loadRuntime: () => Promise<Runtime>;
  notify: (notice: Notice) => void;
  /** Listening limit in ms (visitors), or null. Read at each tick. */
  limitMs: () => number | null;
  /** Who the device is signed in as (a user id, or null for a visitor): the device copy of a new transcript is theirs. */
  owner: () => string | null;
  /** The autosave engine of a signed-in user (default: its module, loaded on first use). */
  loadAutosave?: (userId: string) => Promise<AutosaveEngine>;
  now?: () => number;
  language: RecognitionLanguage;
  /** A recognition language's profanity word list (default: lib/profanity-words, loaded only when a mask is on). */
  loadWords?: WordsLoader;
}

/** How often the limit is checked while recording. */
const TICK_MS = 250;

export class TranscriptionController {
  readonly store = new TranscriptStore();
  /** Every result passes through these before it reaches the store (result-corrections.ts). */
  readonly corrections: ResultCorrections;
  /** The corrections in force; null while a signed-in user's own are still loading. */
  private correctionSettings: CorrectionSettings | null = DEFAULT_CORRECTIONS;
  private settingsWaiters: (() => void)[] = [];
  private runtime: Runtime | null = null;
  private runtimeLoad: Promise<Runtime> | null = null;
  private recovery: RecoveryStore | null = null;
  private engine: RecognitionEngine | null = null;
  /** Increases with each start/resume, so a late runtime load does not start a stale session. */
  private generation = 0;
  private snapshot: ControllerSnapshot;
  private readonly listeners = new Set<() => void>();
  private ticker: ReturnType<typeof setInterval> | undefined;
  /** The autosave session is open (started and not completed). */
  private autosaveOpen = false;
  /** The signed-in user's autosave engine, once loaded, and whose it is. */
  private autosave: AutosaveEngine | null = null;
  private autosaveUser: string | null = null;
  private autosaveLoad: Promise<AutosaveEngine | null> | null = null;
  /** A session was opened (or closed) while the engine loaded: it catches up once loaded. */
  private autosaveBehind = false;
  private stopSessionId: (() => void) | null = null;
  /** Clock value while no engine exists (restored transcript). */
  private heldMs = 0;
  /** The device transcript (recovery id) on the card: the autosave sends its text from that copy. */
  private transcriptId = newRecoveryId();
  private startedAt = new Date();
  private policy: RecognizerPolicy | null = null;

  constructor(private readonly options: ControllerOptions) {
    this.snapshot = { status: 'ready', language: options.language, sessionLanguage: null, restored: false, reconnecting: null, sessionId: null };
    this.store.setSeparator(separatorFor(options.language));
    this.corrections = new ResultCorrections(options.loadWords ?? loadProfanityWords);
  }

  /** The text corrections in force from the next result on (compiled once here, not per result). */
  /** The corrections to apply from the next result on; null while the user's own are loading (a start waits for them). */
  setCorrections(settings: CorrectionSettings | null): void {
    this.correctionSettings = settings;
    if (!settings) return;
    void this.configureCorrections();
    for (const resolve of this.settingsWaiters.splice(0)) resolve();
  }

  private configureCorrections(): Promise<void> {
    if (!this.correctionSettings) return Promise.resolve();
    return this.corrections.configure(this.correctionSettings, this.snapshot.sessionLanguage ?? this.snapshot.language);
  }

  /**
   * Null when the corrections of the session's language are in force; else what to wait for:
   * the user's settings (at most SETTINGS_WAIT_MS: offline or slow, the defaults apply instead),
   * then their code and word list.
   */
  private correctionsToWaitFor(): Promise<void> | null {
    if (!this.correctionSettings) {
      const arrived = new Promise<void>((resolve) => {
        this.settingsWaiters.push(resolve);
        setTimeout(resolve, SETTINGS_WAIT_MS);
      });
      return arrived.then(() => {
        this.correctionSettings ??= DEFAULT_CORRECTIONS;
        return this.correctionsToWaitFor() ?? undefined;
      });
    }
    void this.configureCorrections();
    return this.corrections.pending ? this.corrections.ready : null;
  }

  setRecognizerPolicy(policy: RecognizerPolicy | null): void {
    this.policy = policy;
  }

  /** Applies the policy's recognizer to the running session at once (the engine switches, nothing lost). */
  applyRecognizer(): void {
    this.engine?.setProcessLocally(this.policy?.local ?? false);
  }

  get supported(): boolean {
    return this.options.Recognition !== undefined;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): ControllerSnapshot => this.snapshot;

  /** Milliseconds recorded, pauses excluded. */
  elapsedMs(): number {
    return this.engine ? this.engine.elapsedMs() : this.heldMs;
  }

  /** When the current transcription started (for the saved title and timestamp). */
  get startTime(): Date {
    return this.startedAt;
  }

  /** Loads the engine and recovery code (call on the intent to start: hover, focus, touch), and a signed-in user's autosave. */
  prefetch(): Promise<Runtime> {
    void this.autosaveFor(this.options.owner());
    this.runtimeLoad ??= this.options.loadRuntime().then(
      (runtime) => {
        this.runtime = runtime;
        this.recovery = runtime.createRecoveryStore();
        return runtime;
      },
      (err: unknown) => {
        this.runtimeLoad = null;
        throw err;
      },
    );
    return this.runtimeLoad;
  }

  /** Runs `fn` with the runtime: now if loaded, else once loaded (unless `generation` moved on). */
  private withRuntime(fn: (runtime: Runtime, recovery: RecoveryStore) => void): void {
    if (this.runtime && this.recovery) return fn(this.runtime, this.recovery);
    const generation = this.generation;
    // The code failed to load, or starting with it threw: the session does not start, and says so.
    this.prefetch()
      .then((runtime) => {
        if (generation === this.generation) fn(runtime, this.recovery!);
      })
      .catch((err: unknown) => {
        logUnexpected(err);
        if (generation !== this.generation) return;
        this.stopTicker();
        this.options.notify({ kind: 'error', code: 'start-failed' });
        this.set(this.store.isEmpty ? { status: 'ready', sessionLanguage: null, reconnecting: null } : { status: 'stopped', reconnecting: null });
      });
  }

  setLanguage(language: RecognitionLanguage): void {
    if (this.snapshot.status === 'recording' || this.snapshot.status === 'paused') return;
    this.set({ language });
    if (this.snapshot.sessionLanguage === null) void this.configureCorrections();
  }

  /** A new transcription (the card has asked for confirmation when text existed). */
  start(): void {
    if (!this.options.Recognition) return;
    this.generation += 1;
    this.closeAutosave();
    this.engine?.abort();
    this.engine = null;
    this.store.clear();
    const { language } = this.snapshot;
    this.store.setSeparator(separatorFor(language));
    this.startedAt = new Date();
    this.heldMs = 0;
    const id = (this.transcriptId = newRecoveryId());
    this.openAutosave();
    this.set({ status: 'recording', sessionLanguage: language, restored: false, reconnecting: null });
    this.startTicker();
    const begin = () =>
      this.withRuntime((runtime, recovery) => {
        if (this.snapshot.status !== 'recording') return;
        recovery.begin({ id, userId: this.options.owner(), language, startedAt: this.startedAt.toISOString() });
        this.engine = this.createEngine(runtime);
        this.engine.start(language);
      });
    // Listening starts once the corrections of this language are in force (the user's settings
    // known, a mask's word list loaded).
    const generation = this.generation;
    const waiting = this.correctionsToWaitFor();
    if (waiting) void waiting.then(() => generation === this.generation && begin());
    else begin();
  }

  pause(): void {
    if (this.snapshot.status !== 'recording') return;
    this.set({ status: 'paused', reconnecting: null });
    this.stopTicker();
    const engine = this.engine;
    if (!engine) return;
    void engine.pause().then(() => {
      this.recovery?.setDuration(this.elapsedMs());
      void this.recovery?.flush();
      if (this.autosaveOpen) this.autosave?.saveNow();
    }, logUnexpected);
  }

  resume(): void {
    if (this.snapshot.status !== 'paused' || !this.options.Recognition) return;
    this.generation += 1;
    if (!this.autosaveOpen) {
      this.openAutosave();
      this.updateAutosave();
    }
    this.set({ status: 'recording', restored: false });
    this.startTicker();
    if (this.engine && this.engine.currentState !== 'idle') {
      this.engine.resume();
      return;
    }
    // A restored transcript, a start not yet under way, or after the network gave up:
    // a fresh engine continues the clock.
    this.withRuntime((runtime) => {
      if (this.snapshot.status !== 'recording') return;
      const offset = this.elapsedMs();
      this.engine = this.createEngine(runtime);
      this.engine.start(this.snapshot.language, offset);
    });
  }

  /** Resolves once the last result has arrived and the autosave session is completed. */
  async stop(): Promise<void> {
    const { status } = this.snapshot;
    if (status !== 'recording' && status !== 'paused') return;
    this.set({ status: 'stopped', reconnecting: null, restored: false });
    this.stopTicker();
    await this.engine?.stop();
    this.recovery?.setDuration(this.elapsedMs());
    void this.recovery?.flush();
    this.closeAutosave();
  }

  /** Empties the transcript and the timer; the device copy is dropped. */
  clear(): void {
    this.generation += 1;
    this.engine?.abort();
    this.engine = null;
    this.stopTicker();
    this.store.clear();
    this.heldMs = 0;
    this.recovery?.discard();
    this.closeAutosave();
    this.set({ status: 'ready', sessionLanguage: null, restored: false, reconnecting: null });
  }

  /** A transcript `owner` (a user id, or null for a visitor) left in device storage on an earlier page (reload, crash), if any. */
  async loadRecovery(owner: string | null): Promise<RecoveredTranscript | null> {
    if (!hasRecoveryMarker()) return null;
    await this.prefetch();
    return this.recovery!.load(owner);
  }

  /** Brings back a transcript from device storage, paused: Resume continues it. */
  restore(recovered: RecoveredTranscript): void {
    if (this.snapshot.status === 'recording' || !this.recovery) return;
    this.generation += 1;
    this.engine?.abort();
    this.engine = null;
    this.closeAutosave();
    const { language } = recovered.meta;
    this.store.setSeparator(separatorFor(language));
    this.store.load(recovered.segments);
    const lastEnd = recovered.segments.at(-1)?.endMs ?? 0;
    this.heldMs = Math.max(recovered.meta.durationMs, lastEnd);
    const startedAt = new Date(recovered.meta.startedAt);
    this.startedAt = Number.isNaN(startedAt.getTime()) ? new Date() : startedAt;
    this.transcriptId = recovered.meta.id;
    // As the transcript holds them (trimmed, empty ones left out), so the device copy joins to the same text.
    this.recovery.adopt({ meta: { ...recovered.meta, durationMs: this.heldMs }, segments: [...this.store.segments] });
    this.set({ status: 'paused', language, sessionLanguage: language, restored: true, reconnecting: null });
    void this.configureCorrections();
  }

  /** The user declined to restore it. */
  discardRecovery(): void {
    if (this.snapshot.status === 'ready' && this.store.isEmpty) this.recovery?.discard();
  }

  /** The transcription was saved to the account: nothing left to recover. */
  markSaved(): void {
    this.recovery?.discard();
  }

  /** The page is going away (pagehide): keep what is not yet written, interim text included. */
  persistNow(): void {
    this.recovery?.setDuration(this.elapsedMs());
    this.recovery?.flushSync(this.store.interim);
  }

  /** The page came back from the back/forward cache. */
  pageShown(): void {
    this.recovery?.pageShown();
  }

  /** Sends what earlier page loads of `owner` left queued (its engine loads only when there is some). */
  resumeAutosave(owner: string | null): void {
    if (owner && hasQueuedAutosave()) void this.autosaveFor(owner).then((engine) => engine?.resumePending());
  }

  /** While the session being recorded is shared live, the autosave sends its text every second (see AutosaveEngine.setLive). */
  setLive(on: boolean): void {
    this.autosave?.setLive(on);
  }

  /**
   * The signed-in user changed (logout, a session that ended, another account): the transcript
   * leaves the card, listening stops, and its device copy stays with its owner (a logout removes it).
   */
  release(): void {
    this.dispose();
    this.closeAutosave();
    this.dropAutosave();
    this.store.clear();
    this.heldMs = 0;
    this.set({ status: 'ready', sessionLanguage: null, restored: false, reconnecting: null });
  }

  dispose(): void {
    this.stopSessionId?.();
    this.stopSessionId = null;
    this.generation += 1;
    this.stopTicker();
    this.recovery?.setDuration(this.elapsedMs());
    this.recovery?.detach();
    this.engine?.abort();
    this.engine = null;
  }

  private createEngine(runtime: Runtime): RecognitionEngine {
    const engine: RecognitionEngine = new runtime.RecognitionEngine({
      Recognition: this.options.Recognition!,
      now: this.options.now,
      processLocally: this.policy?.local,
      listener: {
        onFinal: (segment) => {
          if (this.engine !== engine) return;
          const count = this.store.segments.length;
          this.store.append(this.corrections.final(segment, this.store.segments[count - 1]));
          // The device copy keeps the segment as the transcript holds it, so both join to the same text.
          if (this.store.segments.length > count) this.recovery?.append(this.store.segments[count]!);
          this.updateAutosave();
          if (this.snapshot.reconnecting) this.set({ reconnecting: null });
        },
        onInterim: (text) => {
          if (this.engine === engine) this.store.setInterim(this.corrections.interim(text));
        },
        onRetry: (attempt, max) => {
          if (this.engine === engine && !this.policy?.networkLost()) this.set({ reconnecting: { attempt, max } });
        },
        onFatal: (code) => {
          if (this.engine === engine) this.onFatal(code);
        },
      },
    });
    return engine;
  }

  private onFatal(code: string): void {
    this.stopTicker();
    this.recovery?.setDuration(this.elapsedMs());
    void this.recovery?.flush();
    const keep = this.policy?.pausesOn(code);
    if (!keep) this.options.notify({ kind: 'error', code });
    if (keep || code === 'network') {
      // Connection lost for good, or on-device recognition missing: paused, so Resume continues the same transcript.
      this.set({ status: 'paused', reconnecting: null });
      if (this.autosaveOpen) this.autosave?.saveNow();
      return;
    }
    this.closeAutosave();
    if (this.store.isEmpty) {
      // Nothing was heard (e.g. the microphone was refused at once): back to ready.
      this.recovery?.discard();
      this.set({ status: 'ready', sessionLanguage: null, reconnecting: null });
    } else {
      this.set({ status: 'stopped', reconnecting: null });
    }
  }

  private startTicker(): void {
    this.stopTicker();
    this.ticker = setInterval(() => this.tick(), TICK_MS);
  }

  private stopTicker(): void {
    clearInterval(this.ticker);
    this.ticker = undefined;
  }

  /** Enforces the visitor limit while recording. */
  tick(): void {
    if (this.snapshot.status !== 'recording') return;
    const limit = this.options.limitMs();
    if (limit !== null && this.elapsedMs() >= limit) {
      this.stop().catch(logUnexpected);
      this.options.notify({ kind: 'time-limit' });
    }
  }

  /**
   * The autosave engine of `owner` (a signed-in user), loading it on first use; null for a
   * visitor, or when the code cannot load (the session goes on, unsaved; logged).
   */
  private autosaveFor(owner: string | null): Promise<AutosaveEngine | null> {
    if (!owner) return Promise.resolve(null);
    if (this.autosaveUser === owner && this.autosaveLoad) return this.autosaveLoad;
    this.dropAutosave();
    this.autosaveUser = owner;
    const load = this.options.loadAutosave ?? loadAutosaveEngine;
    const loading: Promise<AutosaveEngine | null> = load(owner).then(
      (engine) => {
        if (this.autosaveLoad !== loading) return null;
        this.autosave = engine;
        this.stopSessionId = engine.subscribe(() => this.set({ sessionId: engine.sessionId() }));
        this.catchUpAutosave(engine);
        return engine;
      },
      (err: unknown) => {
        if (this.autosaveLoad === loading) this.autosaveLoad = null;
        logUnexpected(err);
        return null;
      },
    );
    this.autosaveLoad = loading;
    return loading;
  }

  /** The engine has loaded: the session opened meanwhile starts with the transcript so far (and is completed if it was closed). */
  private catchUpAutosave(engine: AutosaveEngine): void {
    if (!this.autosaveBehind) return;
    this.autosaveBehind = false;
    engine.start(this.snapshot.sessionLanguage ?? this.snapshot.language, this.transcriptId);
    if (!this.store.isEmpty) this.updateAutosave(true);
    if (!this.autosaveOpen) engine.complete();
    else if (this.snapshot.status === 'paused') engine.saveNow();
  }

  /** The signed-in user changed: the engine of the one before is let go (its queue stays theirs). */
  private dropAutosave(): void {
    this.stopSessionId?.();
    this.stopSessionId = null;
    this.autosave = null;
    this.autosaveUser = null;
    this.autosaveLoad = null;
    this.autosaveBehind = false;
    this.set({ sessionId: null });
  }

  private openAutosave(): void {
    this.autosaveOpen = true;
    const owner = this.options.owner();
    if (!owner) return;
    if (this.autosave && this.autosaveUser === owner) return this.autosave.start(this.snapshot.language, this.transcriptId);
    void this.autosaveFor(owner);
    this.autosaveBehind = true;
  }

  private closeAutosave(): void {
    if (!this.autosaveOpen) return;
    this.autosaveOpen = false;
    if (!this.autosaveBehind) this.autosave?.complete();
  }

  private updateAutosave(open = this.autosaveOpen): void {
    if (!open || !this.autosave || this.autosaveBehind) return;
    this.autosave.update({
      transcript: this.transcriptId,
      // Read by parts: the autosave takes only the unsent tail, never the whole text.
      text: this.store.textSource,
      // The store's append-only array itself (no copy per result).
      segments: this.store.segments,
      durationSec: Math.round(this.elapsedMs() / 1000),
      language: this.snapshot.sessionLanguage ?? this.snapshot.language,
    });
  }

  private set(patch: Partial<ControllerSnapshot>): void {
    const next = { ...this.snapshot, ...patch };
    if ((Object.keys(patch) as (keyof ControllerSnapshot)[]).every((k) => next[k] === this.snapshot[k])) return;
    this.snapshot = next;
    for (const listener of this.listeners) listener();
  }
}

/** A failure nothing waits for (the recognition engine's own errors arrive as notices): logged, never unhandled. */
export const logUnexpected = (err: unknown) => console.error('[transcribe]', err);

/** The autosave engine's module, loaded only for signed-in users (visitors never fetch it). */
const loadAutosaveEngine = (userId: string) => import('../autosave/autosave-engine').then((m) => m.autosaveEngineFor(userId));

/** A new transcription id for device storage (not a server id). */
const newRecoveryId = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
