import { useMutation } from '../../../lib/mutation';
import { api } from '../../../lib/api';

/** POST /api/settings/check-dev-password: `{success}`; 429 with secondsLeft when rate-limited. */
export function useCheckDevPassword() {
  return useMutation({
    mutationFn: (password: string) => api('checkDevPassword', { body: { password } }),
  });
}
