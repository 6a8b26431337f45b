import { AUTOSAVE_INTERVAL_MS, AUTOSAVE_MIN_GAP_MS, LIVE_SAVE_INTERVAL_MS } from '@app/shared/constants';

/**
 * When the autosave saves: AUTOSAVE_INTERVAL_MS after the last save of the session being
 * recorded (the periodic tick), and at once on a change more than AUTOSAVE_MIN_GAP_MS after
 * it; while the session is shared live, both are LIVE_SAVE_INTERVAL_MS (600 ms), so each final
 * result goes at once unless a save went out less than that ago (then at the interval's end).
 */
export interface Cadence {
  /** A save of the session being recorded went out (or the session began): the gap counts from now. */
  mark(): void;
  /** (Re)starts the periodic tick from now, unless `idle()` says there is nothing to save. */
  arm(): void;
  /** A change now may be saved at once. */
  due(): boolean;
  readonly live: boolean;
  /** The short cadence on or off (from the next arm()). */
  setLive(on: boolean): void;
  /** Stops the tick for good. */
  stop(): void;
}

export function createCadence({ now, tick, idle }: { now: () => number; tick: () => void; idle: () => boolean }): Cadence {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastSaveAt = 0;
  let live = false;
  let stopped = false;

  function arm(): void {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (stopped || idle()) return;
    timer = setTimeout(
      () => {
        timer = undefined;
        tick();
        arm();
      },
      live ? LIVE_SAVE_INTERVAL_MS : AUTOSAVE_INTERVAL_MS,
    );
  }

  return {
    mark: () => void (lastSaveAt = now()),
    arm,
    due: () => now() - lastSaveAt > (live ? LIVE_SAVE_INTERVAL_MS : AUTOSAVE_MIN_GAP_MS),
    get live() {
      return live;
    },
    setLive(on) {
      live = on;
    },
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
