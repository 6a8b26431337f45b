import { effectivePlan } from '../../domain/plan.ts';
import { route } from '../../lib/http.ts';

export const handler = route('planStatus', async ({ user }) => {
  const plan = effectivePlan(user);
  return { plan, isPro: plan === 'pro', planExpiry: user.planExpiry, planRenews: plan === 'pro' && user.planRenews !== false };
});
