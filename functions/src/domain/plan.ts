import { FREE_AUTOMATIC_PER_MONTH, type Plan } from '@app/shared/constants';

/** Days a paid plan stays active past its recorded period end, covering webhook delays. */
export const PLAN_GRACE_MS = 3 * 24 * 60 * 60 * 1000;

/**
 * The effective plan: 'premium' reads as pro; a pro plan past its expiry is free: at once when it
 * was set not to renew (cancelled at the period end), else after the grace for a late renewal.
 */
export function effectivePlan(user: { plan: string; planExpiry: string | null; planRenews?: boolean }, now = Date.now()): Plan {
  const paid = user.plan === 'pro' || user.plan === 'premium';
  if (!paid) return 'free';
  const grace = user.planRenews === false ? 0 : PLAN_GRACE_MS;
  if (user.planExpiry && Date.parse(user.planExpiry) + grace <= now) return 'free';
  return 'pro';
}

/** How many automatic transcriptions of a calendar month a plan keeps: free FREE_AUTOMATIC_PER_MONTH, Pro no limit (undefined). */
export const automaticPerMonth = (plan: Plan): number | undefined => (plan === 'free' ? FREE_AUTOMATIC_PER_MONTH : undefined);

/** What the API says of a user's plan (plan-status, and the answer to a renewal): renewing only while Pro. */
export function planStatus(user: { plan: string; planExpiry: string | null; planRenews?: boolean }, now = Date.now()) {
  const plan = effectivePlan(user, now);
  return { plan, isPro: plan === 'pro', planExpiry: user.planExpiry, planRenews: plan === 'pro' && user.planRenews !== false };
}
