import { readStorage, writeStorage } from '../../../lib/storage';

/**
 * A small flag in localStorage that says "device storage may hold a transcript
 * to restore", so an idle page loads the recovery code only when it may be needed.
 */
const MARKER_KEY = 'transcribe.recovery.active';

export const hasRecoveryMarker = () => readStorage(MARKER_KEY) !== null;
export const setRecoveryMarker = (on: boolean) => writeStorage(MARKER_KEY, on ? '1' : null);
