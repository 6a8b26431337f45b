import type { PlanStatusResponse } from '@app/shared/schemas/auth';

type Listener = (status: PlanStatusResponse) => void;
const listeners = new Set<Listener>();

/**
 * The user's plan as an answer other than the plan-status route's told it (each autosave save
 * carries it): the plan watch takes it as that route's answer, so a recording page does not
 * also ask for the plan. Anything not shaped as a plan status is ignored.
 */
export function announcePlanStatus(status: unknown): void {
  if (!isPlanStatus(status)) return;
  for (const listener of listeners) listener(status);
}

/** Hears every announced plan status until the returned function is called. */
export function onPlanStatus(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function isPlanStatus(value: unknown): value is PlanStatusResponse {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (v.plan === 'free' || v.plan === 'pro') && typeof v.isPro === 'boolean' && (v.planExpiry === null || typeof v.planExpiry === 'string');
}
