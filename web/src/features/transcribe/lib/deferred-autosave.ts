import type { Autosave } from '../autosave/use-autosave';

/**
 * The card's handle on the server autosave, whose code loads only for signed-in
 * users (visitors never fetch it). Calls made before it has loaded are kept, in
 * order (only the latest `update` between two other calls), and replayed once it
 * is attached; for a visitor they are dropped.
 */
export class DeferredAutosave implements Autosave {
  private target: Autosave | null = null;
  private queue: Array<(target: Autosave) => void> = [];
  private pendingUpdate = false;
  /** false for a visitor: nothing to save, nothing to keep. */
  private wanted = true;
  private readonly listeners = new Set<() => void>();
  private unsubscribeTarget: (() => void) | null = null;

  readonly attach = (target: Autosave): void => {
    this.unsubscribeTarget?.();
    this.target = target;
    this.unsubscribeTarget = target.subscribe(this.emit);
    const queue = this.queue;
    this.queue = [];
    this.pendingUpdate = false;
    for (const call of queue) call(target);
    this.emit();
  };

  /** The user is a visitor (or signed out): drop what is queued and ignore calls. */
  setWanted(wanted: boolean): void {
    this.wanted = wanted;
    if (!wanted) {
      this.unsubscribeTarget?.();
      this.unsubscribeTarget = null;
      this.target = null;
      this.queue = [];
      this.pendingUpdate = false;
      this.emit();
    }
  }

  /** The attached autosave's running session id (none before it has loaded). */
  readonly sessionId = (): string | null => this.target?.sessionId() ?? null;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private readonly emit = (): void => {
    for (const listener of this.listeners) listener();
  };

  setLive(on: boolean): void {
    this.call((t) => t.setLive(on));
  }

  start(language: Parameters<Autosave['start']>[0]): void {
    this.call((t) => t.start(language));
  }

  update(snapshot: Parameters<Autosave['update']>[0]): void {
    if (this.target) return this.target.update(snapshot);
    if (!this.wanted) return;
    const call = (t: Autosave) => t.update(snapshot);
    // Updates carry the whole text so far: the latest one replaces a queued one.
    if (this.pendingUpdate) this.queue[this.queue.length - 1] = call;
    else this.queue.push(call);
    this.pendingUpdate = true;
  }

  saveNow(): void {
    this.call((t) => t.saveNow());
  }

  complete(): void {
    this.call((t) => t.complete());
  }

  private call(fn: (target: Autosave) => void): void {
    if (this.target) return fn(this.target);
    if (!this.wanted) return;
    this.queue.push(fn);
    this.pendingUpdate = false;
  }
}
