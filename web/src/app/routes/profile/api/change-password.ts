import { useMutation } from '../../../../lib/query';
import type { ChangePasswordRequest } from '@app/shared/schemas/auth';
import { api } from '../../../../lib/api';
import { setToken } from '../../../../lib/auth-token';

/**
 * POST /api/auth/change-password. The change ends every session but this one: the answer's fresh
 * token replaces the stored one (the request core already takes it from the session-token header).
 */
export function useChangePassword() {
  return useMutation({
    mutationFn: async (body: ChangePasswordRequest) => {
      const { token } = await api('changePassword', { body });
      setToken(token);
    },
    scope: { id: 'change-password' },
  });
}
