/**
 * What happened in this visit (this page load) that other features react to without importing
 * each other: once a transcription has started, the upgrade modal never opens by itself, so it
 * can never cover a running transcription.
 */
let transcriptionStarted = false;

export function markTranscriptionStarted(): void {
  transcriptionStarted = true;
}

export function transcriptionStartedThisVisit(): boolean {
  return transcriptionStarted;
}

/** Tests: a fresh visit. */
export function resetVisit(): void {
  transcriptionStarted = false;
}
