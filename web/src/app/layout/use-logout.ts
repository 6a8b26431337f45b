import { useNavigate } from 'react-router';
import { useSessionActions, useUser } from '../../lib/auth';
import { logOutDevice } from '../../features/transcribe/device-data';

/**
 * Logs out: the user's unsent autosave text goes up first, then the session and cached data
 * are dropped, the user's transcripts leave device storage, and the home page shows.
 */
export function useLogout() {
  const navigate = useNavigate();
  const user = useUser();
  const { endSession } = useSessionActions();
  const userId = user?.id ?? null;
  return () => {
    void logOutDevice(userId, endSession)
      .then(() => navigate('/'))
      .catch((err: unknown) => console.error('[logout]', err));
  };
}
