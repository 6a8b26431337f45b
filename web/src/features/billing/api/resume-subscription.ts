import { useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/mutation';
import type { User } from '@app/shared/schemas/auth';
import { api, ApiError } from '../../../lib/api';
import { authKeys } from '../../../lib/auth';
import { formatDate } from '../../../lib/format';
import { currentUiLanguage } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { useBillingT } from '../i18n';
import { billingKeys } from './plan-status';

/**
 * POST /stripe/subscription/resume: a Pro subscription set to cancel at the end of its period
 * renews again. The answer is the plan as it now stands: it goes straight into the cached user and
 * plan status, so the plan card (and every other reader) shows the renewal at once.
 */
export function useResumeSubscription() {
  const tb = useBillingT();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => api('resumeSubscription'),
    onSuccess: (status) => {
      queryClient.setQueryData(billingKeys.planStatus(), status);
      queryClient.setQueryData<User | null>(authKeys.me(), (u) =>
        u ? { ...u, plan: status.plan, planExpiry: status.planExpiry, planRenews: status.planRenews } : u,
      );
      toast.success(tb('renewSuccessTitle'), {
        id: 'renew-result',
        description: status.planExpiry ? tb('renewSuccessDescription', { date: formatDate(status.planExpiry, currentUiLanguage()) }) : undefined,
      });
    },
    onError: (error) => {
      const ended = error instanceof ApiError && (error.code === 'not_resumable' || error.code === 'no_subscription');
      toast.error(tb('renewErrorTitle'), { id: 'renew-result', description: ended ? tb('renewEnded') : tb('renewErrorDescription') });
      // The plan may have moved on (the period ended): show it as it is.
      void queryClient.invalidateQueries({ queryKey: authKeys.me() });
    },
  });
  return { renew: () => mutation.mutate(), isRenewing: mutation.isPending };
}
