import { ON_DEVICE_MISSING_ERRORS } from '../engine/on-device';
import type { RecognizerPolicy, TranscriptionController } from '../lib/transcription-controller';

export interface OnDeviceSnapshot {
  /** Which recognizer runs (or will run): on this device (`processLocally`) or the browser's default, a cloud service. */
  recognizer: 'cloud' | 'on-device';
  /** The user asked for private recognition: the audio stays on this device. */
  privateMode: boolean;
  /** The network dropped and recognition moved to this device until it returns. */
  offlineSwitch: boolean;
  /** The on-device recognizer reported it is missing (its error code): the session is paused, the cloud recognizer on offer. */
  missing: string | null;
}

/**
 * Which recognizer the card's sessions use, where the browser has on-device recognition:
 * private recognition when the user asks for it; this device while the network is down (when the
 * language is installed here), the cloud recognizer again once it is back; and, when on-device
 * recognition turns out to be missing (`service-not-allowed`, `language-not-supported`), a pause
 * that keeps the text and offers the cloud recognizer. The controller asks it (RecognizerPolicy);
 * every change is applied to a running session at once, switching recognizers without losing
 * or repeating text.
 */
export class OnDeviceState implements RecognizerPolicy {
  private snapshot: OnDeviceSnapshot = { recognizer: 'cloud', privateMode: false, offlineSwitch: false, missing: null };
  private readonly listeners = new Set<() => void>();
  /** On-device recognition of the chosen language is installed (`available()` said 'available'). */
  private ready = false;

  constructor(private readonly controller: Pick<TranscriptionController, 'applyRecognizer' | 'resume' | 'getSnapshot'>) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): OnDeviceSnapshot => this.snapshot;

  get local(): boolean {
    return this.snapshot.privateMode || this.snapshot.offlineSwitch;
  }

  setReady(ready: boolean): void {
    this.ready = ready;
    if (!ready && this.snapshot.privateMode && this.controller.getSnapshot().status !== 'recording') this.setPrivate(false);
  }

  /** Private recognition on or off; a running session switches recognizers at once, keeping its text. */
  setPrivate(on: boolean): void {
    this.set({ privateMode: on, missing: null });
  }

  /** After on-device recognition was missing: continue the same transcript with the cloud recognizer. */
  useCloud(): void {
    this.set({ privateMode: false, offlineSwitch: false, missing: null });
    this.controller.resume();
  }

  /**
   * The browser went offline or back online. Offline, with the language installed on the device,
   * recognition moves here; back online, it returns to the cloud (unless the user chose private).
   */
  networkChanged(online: boolean): void {
    if (!online && this.ready && !this.snapshot.privateMode) this.set({ offlineSwitch: true });
    else if (online && this.snapshot.offlineSwitch) this.set({ offlineSwitch: false });
  }

  networkLost(): boolean {
    if (this.local || !this.ready) return false;
    this.networkChanged(false);
    return true;
  }

  pausesOn(code: string): boolean {
    if (!this.local || !ON_DEVICE_MISSING_ERRORS.includes(code)) return false;
    this.set({ missing: code });
    return true;
  }

  private set(patch: Partial<OnDeviceSnapshot>): void {
    const next = { ...this.snapshot, ...patch };
    next.recognizer = next.privateMode || next.offlineSwitch ? 'on-device' : 'cloud';
    const changed = (Object.keys(next) as (keyof OnDeviceSnapshot)[]).some((k) => next[k] !== this.snapshot[k]);
    this.snapshot = next;
    if (!changed) return;
    this.controller.applyRecognizer();
    for (const listener of this.listeners) listener();
  }
}
