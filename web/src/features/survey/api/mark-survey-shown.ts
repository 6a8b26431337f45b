import { useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/mutation';
import { api } from '../../../lib/api';
import { authKeys } from '../../../lib/auth';

/** PATCH /api/auth/me {surveyShown: true}: the survey is shown once per user. */
export function useMarkSurveyShown() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api('updateMe', { body: { surveyShown: true } }),
    scope: { id: 'update-me' },
    onSuccess: (user) => queryClient.setQueryData(authKeys.me(), user),
  });
}
