import { useQueryClient } from '../lib/query';
import { useEffect, useEffectEvent } from 'react';
import { STORAGE_KEYS } from '@app/shared/constants';
import { authKeys, resetToVisitor, useSession } from '../lib/auth';
import { AUTOSAVE_QUEUE_KEY } from '../features/transcribe/autosave/queue-key';
import { onSessionEnd } from '../lib/auth-token';
import { i18n } from '../lib/i18n';
import { readStorage } from '../lib/storage';

/**
 * Keeps the session coherent: a session the server refuses logs the user out; a login
 * or logout in another tab is followed here; the saved UI language of the user wins
 * when the user loads (later switches are driven by the UI itself).
 */
export function SessionSync() {
  const queryClient = useQueryClient();
  const { user } = useSession();

  useEffect(() => onSessionEnd(() => resetToVisitor(queryClient)), [queryClient]);

  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== STORAGE_KEYS.sessionUser && event.key !== null) return;
      if (event.newValue === null && event.key !== null) resetToVisitor(queryClient);
      else void queryClient.invalidateQueries({ queryKey: authKeys.me() });
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [queryClient]);

  const userId = user?.id;
  const savedLanguage = user?.language;
  const applySavedLanguage = useEffectEvent(() => {
    if (savedLanguage && i18n.resolvedLanguage !== savedLanguage) void i18n.changeLanguage(savedLanguage);
  });
  // Only when a (different) user loads; not on every profile update.
  useEffect(() => {
    if (userId) applySavedLanguage();
  }, [userId]);

  // Autosaves an earlier page load could not send (offline, reload, closed tab) go out now, on any page
  // (only this user's, in this user's session). Autosave errors are only logged.
  useEffect(() => {
    if (userId && readStorage(AUTOSAVE_QUEUE_KEY)) {
      import('../features/transcribe/autosave/autosave-engine').then(
        (m) => m.autosaveEngineFor(userId).resumePending(),
        (err: unknown) => console.warn('[autosave] could not load the autosave code; the queue waits for the next page load', err),
      );
    }
  }, [userId]);

  return null;
}
