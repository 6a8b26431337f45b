import { readStorage } from '../../../lib/storage';

/** Device storage key of the autosave queue (kept tiny so the app shell can check it without loading the engine). */
export const AUTOSAVE_QUEUE_KEY = 'autosave_queue';

/** Earlier page loads left autosave text on this device (for some user): the engine has work. */
export const hasQueuedAutosave = () => readStorage(AUTOSAVE_QUEUE_KEY) !== null;
