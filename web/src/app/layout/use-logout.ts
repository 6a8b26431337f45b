import { useNavigate } from 'react-router';
import { useSessionActions } from '../../lib/auth';

/** Logs out: token and cached data dropped, back to the home page. */
export function useLogout() {
  const navigate = useNavigate();
  const { endSession } = useSessionActions();
  return () => {
    endSession();
    void navigate('/');
  };
}
