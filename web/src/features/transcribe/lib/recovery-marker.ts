import { readStorage, writeStorage } from '../../../lib/storage';

/**
 * A small localStorage key naming the device transcript offered for restore (its id; '1' from
 * versions that kept one transcript), so an idle page loads the recovery code only when one may
 * be waiting.
 */
const MARKER_KEY = 'transcribe.recovery.active';

export const hasRecoveryMarker = () => readStorage(MARKER_KEY) !== null;
/** The id of the transcript offered for restore, '1' when an older version wrote it, or null. */
export const recoveryMarker = () => readStorage(MARKER_KEY);
export const setRecoveryMarker = (id: string | null) => writeStorage(MARKER_KEY, id);
