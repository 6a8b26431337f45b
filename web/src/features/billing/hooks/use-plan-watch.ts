import { useQuery, useQueryClient } from '../../../lib/query';
import { useEffect, useEffectEvent } from 'react';
import { toast } from '../../../lib/toast';
import { PLAN_POLL_MS, UPGRADE_TOAST_MS } from '@app/shared/constants';
import type { User } from '@app/shared/schemas/auth';
import { authKeys } from '../../../lib/auth';
import { onPlanStatus } from '../../../lib/plan-status';
import { planStatusQuery } from '../api/plan-status';
import { useBillingT } from '../i18n';
import { recallPlan, rememberPlan } from '../lib/plan-memory';

/**
 * Keeps the plan no older than PLAN_POLL_MS while a user is logged in: the autosave's answers
 * carry it (a recording page saves at least that often while it has new text), and the plan is
 * asked for only when none came for that long. A change updates the cached user at once (so Pro
 * features unlock or lock everywhere) and refetches it; free -> Pro also shows the success
 * toast for UPGRADE_TOAST_MS.
 */
export function usePlanWatch(user: User) {
  const tb = useBillingT();
  const queryClient = useQueryClient();
  const { data } = useQuery({ ...planStatusQuery(), refetchInterval: PLAN_POLL_MS });
  useEffect(() => onPlanStatus((status) => queryClient.setQueryData(planStatusQuery().queryKey, status)), [queryClient]);

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
