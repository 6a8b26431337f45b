import { hasQueuedAutosave } from './autosave/queue-key';
import { hasRecoveryMarker } from './lib/recovery-marker';

/** How long a logout waits for the leaving user's unsent autosave text to reach the server. */
export const LOGOUT_SEND_MS = 3_000;

const warn = (...args: unknown[]) => console.warn('[logout]', ...args);

const load = <T>(module: Promise<T>) =>
  module.catch((err: unknown) => {
    warn('could not load the code that clears device data', err);
    return null;
  });

type AutosaveModule = typeof import('./autosave/autosave-engine');

/** The user's running autosave session completed and the queued text sent, waiting at most LOGOUT_SEND_MS. */
async function sendWithin(autosave: AutosaveModule, userId: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    autosave.sendBeforeLogout(userId).catch((err: unknown) => warn('could not send the queued autosave', err)),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, LOGOUT_SEND_MS))),
  ]);
  clearTimeout(timer);
}

/**
 * Before a sign-out that ends the session on the server first (sign out everywhere): the user's
 * unsent autosave text goes up while the session still lives (as logOutDevice does). Never rejects.
 */
export async function sendBeforeSignOut(userId: string): Promise<void> {
  const autosave = hasQueuedAutosave() ? await load(import('./autosave/autosave-engine')) : null;
  if (autosave) await sendWithin(autosave, userId);
}

/**
 * Logout on this device. While still signed in, the user's running autosave session is
 * completed and the queued text sent (waiting at most LOGOUT_SEND_MS); then `endSession`
 * runs, and the user's transcripts leave device storage: their autosave queue entries,
 * sent or not, and every device transcript they recorded. Data of a visitor or another
 * account stays (offered only to its owner). Never rejects: a failure is logged and the
 * session ends all the same. The code for each part loads only when there is data for it.
 */
export async function logOutDevice(userId: string | null, endSession: () => void | Promise<void>): Promise<void> {
  const [autosave, recovery] = userId
    ? await Promise.all([
        hasQueuedAutosave() ? load(import('./autosave/autosave-engine')) : null,
        // The queue's text is read from device transcripts the marker may not name.
        hasRecoveryMarker() || hasQueuedAutosave() ? load(import('./lib/recovery')) : null,
      ])
    : [null, null];

  if (autosave && userId) await sendWithin(autosave, userId);

  try {
    await endSession();
  } catch (err) {
    warn('ending the session failed', err);
  }

  if (!userId) return;
  try {
    autosave?.forgetAutosave(userId);
    await recovery?.forgetRecovery(userId);
  } catch (err) {
    warn('could not clear device data', err);
  }
}

/**
 * The account was deleted: the user's transcripts leave this device at once, nothing sent (the
 * server no longer takes them): their autosave queue entries and every device transcript they
 * recorded. Data of a visitor or another account stays. Never rejects: a failure is logged.
 */
export async function forgetDeviceTranscripts(userId: string): Promise<void> {
  try {
    const [autosave, recovery] = await Promise.all([import('./autosave/autosave-engine'), import('./lib/recovery')]);
    autosave.forgetAutosave(userId);
    await recovery.forgetRecovery(userId);
  } catch (err) {
    warn('could not clear device data', err);
  }
}
