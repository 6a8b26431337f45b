import { useMutation } from '../../../../lib/mutation';
import type { ChangePasswordRequest } from '@app/shared/schemas/auth';
import { api } from '../../../../lib/api';

/**
 * POST /api/auth/change-password. The change ends every session but this one, whose fresh token
 * the server sets in the session cookie.
 */
export function useChangePassword() {
  return useMutation({
    mutationFn: async (body: ChangePasswordRequest) => {
      await api('changePassword', { body });
    },
    scope: { id: 'change-password' },
  });
}
