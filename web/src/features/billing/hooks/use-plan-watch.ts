import { useQuery, useQueryClient } from '../../../lib/query';
import { useEffect, useEffectEvent } from 'react';
import { toast } from '../../../lib/toast';
import { PLAN_POLL_MS, UPGRADE_TOAST_MS } from '@app/shared/constants';
import type { User } from '@app/shared/schemas/auth';
import { authKeys } from '../../../lib/auth';
import { planStatusQuery } from '../api/plan-status';
import { useBillingT } from '../i18n';
import { recallPlan, rememberPlan } from '../lib/plan-memory';

/**
 * Polls the plan every PLAN_POLL_MS while a user is logged in. A change updates the
 * cached user at once (so Pro features unlock or lock everywhere) and refetches it;
 * free -> Pro also shows the success toast for UPGRADE_TOAST_MS.
 */
export function usePlanWatch(user: User) {
  const tb = useBillingT();
  const queryClient = useQueryClient();
  const { data } = useQuery({ ...planStatusQuery(), refetchInterval: PLAN_POLL_MS });

  // Runs per answer of the server; the user's fields are read, not watched.
  const onAnswer = useEffectEvent((answer: NonNullable<typeof data>) => {
    const now = answer.isPro ? 'pro' : 'free';
    const before = recallPlan(user.id) ?? user.plan;
    rememberPlan(user.id, now);
    if (before === 'free' && now === 'pro') {
      toast.success(tb('upgradeSuccessTitle'), {
        id: 'upgrade-success',
        description: tb('upgradeSuccessDescription'),
        duration: UPGRADE_TOAST_MS,
      });
    }
    if (now !== user.plan || answer.planExpiry !== user.planExpiry || answer.planRenews !== user.planRenews) {
      queryClient.setQueryData<User | null>(authKeys.me(), (u) => (u ? { ...u, plan: now, planExpiry: answer.planExpiry, planRenews: answer.planRenews } : u));
      void queryClient.invalidateQueries({ queryKey: authKeys.me() });
    }
  });
  useEffect(() => {
    if (data) onAnswer(data);
  }, [data]);
}
