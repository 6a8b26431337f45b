import type { Plan } from '@app/shared/constants';

/** Days a paid plan stays active past its recorded period end, covering webhook delays. */
export const PLAN_GRACE_MS = 3 * 24 * 60 * 60 * 1000;

/** The effective plan: 'premium' reads as pro; a pro plan past its expiry (plus grace) is free. */
export function effectivePlan(user: { plan: string; planExpiry: string | null }, now = Date.now()): Plan {
  const paid = user.plan === 'pro' || user.plan === 'premium';
  if (!paid) return 'free';
  if (user.planExpiry && Date.parse(user.planExpiry) + PLAN_GRACE_MS < now) return 'free';
  return 'pro';
}
