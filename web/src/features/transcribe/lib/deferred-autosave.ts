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

  readonly attach = (target: Autosave): void => {
    this.target = target;
    const queue = this.queue;
    this.queue = [];
    this.pendingUpdate = false;
    for (const call of queue) call(target);
  };

  /** The user is a visitor (or signed out): drop what is queued and ignore calls. */
  setWanted(wanted: boolean): void {
    this.wanted = wanted;
    if (!wanted) {
      this.target = null;
      this.queue = [];
      this.pendingUpdate = false;
    }
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
