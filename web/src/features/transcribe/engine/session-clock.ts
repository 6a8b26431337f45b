/**
 * The session clock: milliseconds of recording, pauses excluded. Segment times,
 * the timer and the visitor limit all read it.
 */
export class SessionClock {
  private base = 0;
  private runningSince: number | null = null;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Back to `offsetMs` (0 for a new session; a restored session continues from its duration), held. */
  reset(offsetMs = 0): void {
    this.base = offsetMs;
    this.runningSince = null;
  }

  run(): void {
    if (this.runningSince === null) this.runningSince = this.now();
  }

  hold(): void {
    if (this.runningSince === null) return;
    this.base += this.now() - this.runningSince;
    this.runningSince = null;
  }

  get running(): boolean {
    return this.runningSince !== null;
  }

  /** Whole milliseconds on the session clock. */
  elapsed(): number {
    const live = this.runningSince === null ? 0 : this.now() - this.runningSince;
    return Math.max(0, Math.floor(this.base + live));
  }
}
