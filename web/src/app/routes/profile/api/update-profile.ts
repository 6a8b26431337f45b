import { useQueryClient } from '../../../../lib/query';
import { useMutation } from '../../../../lib/mutation';
import type { UpdateMeRequest } from '@app/shared/schemas/auth';
import { api } from '../../../../lib/api';
import { authKeys } from '../../../../lib/auth';

/** PATCH /api/auth/me; the answer replaces the cached user. Serial with other profile writes. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateMeRequest) => api('updateMe', { body }),
    scope: { id: 'update-me' },
    onSuccess: (user) => queryClient.setQueryData(authKeys.me(), user),
  });
}
