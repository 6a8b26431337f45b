/** Device storage key of the autosave queue (kept tiny so the app shell can check it without loading the engine). */
export const AUTOSAVE_QUEUE_KEY = 'autosave_queue';
