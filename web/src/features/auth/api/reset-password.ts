import { useMutation } from '../../../lib/mutation';
import type { ResetPasswordRequest } from '@app/shared/schemas/auth';
import { api } from '../../../lib/api';

export function useResetPassword() {
  return useMutation({
    mutationFn: (body: ResetPasswordRequest) => api('resetPassword', { body }),
  });
}
