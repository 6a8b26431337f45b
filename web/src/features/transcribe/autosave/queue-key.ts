import { readStorage } from '../../../lib/storage';

/** Device storage key of the autosave queue (kept tiny so the app shell can check it without loading the engine). */
export const AUTOSAVE_QUEUE_KEY = 'autosave_queue';

/** Earlier page loads left autosave text on this device (for some user): the engine has work. */
export const hasQueuedAutosave = () => readStorage(AUTOSAVE_QUEUE_KEY) !== null;

/** What of a queue entry says whether it still reads its device transcript. */
interface TranscriptUse {
  transcript?: unknown;
  base?: unknown;
  length?: unknown;
  recording?: unknown;
  owner?: unknown;
}

/**
 * A queue entry reads its unsent text from the device transcript it names: it needs that
 * transcript while the server lacks some of its text, or while a running page records into it.
 */
export const needsTranscript = (e: TranscriptUse): e is TranscriptUse & { transcript: string } =>
  typeof e.transcript === 'string' &&
  ((typeof e.length === 'number' && typeof e.base === 'number' && e.length > e.base) || (e.recording === true && e.owner !== null));

/** The ids of the device transcripts the autosave queue still reads (see needsTranscript). */
export function queuedTranscripts(): Set<string> {
  const ids = new Set<string>();
  try {
    const parsed: unknown = JSON.parse(readStorage(AUTOSAVE_QUEUE_KEY) ?? '[]');
    if (Array.isArray(parsed)) for (const e of parsed) if (typeof e === 'object' && e !== null && needsTranscript(e as TranscriptUse)) ids.add((e as { transcript: string }).transcript);
  } catch {
    // A damaged queue is an empty one.
  }
  return ids;
}
