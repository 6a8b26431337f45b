import type { Plan } from '@app/shared/constants';

/**
 * The last plan this tab saw for a user (session storage): the hosted checkout is a
 * full page load away, so "free before, Pro now" must survive the round trip.
 */
const key = (userId: string) => `billing.lastPlan.${userId}`;

export function recallPlan(userId: string): Plan | null {
  try {
    const value = window.sessionStorage.getItem(key(userId));
    return value === 'free' || value === 'pro' ? value : null;
  } catch {
    return null;
  }
}

export function rememberPlan(userId: string, plan: Plan): void {
  try {
    window.sessionStorage.setItem(key(userId), plan);
  } catch {
    // Storage unavailable: the toast may be missed after a checkout, nothing else.
  }
}

/** Once per visit (tab session): whether the upgrade modal already opened by itself. */
const AUTO_OPEN_KEY = 'billing.upgradeShown';

export function takeAutoOpenTurn(): boolean {
  try {
    if (window.sessionStorage.getItem(AUTO_OPEN_KEY)) return false;
    window.sessionStorage.setItem(AUTO_OPEN_KEY, '1');
    return true;
  } catch {
    return false;
  }
}

/**
 * Where in the app the checkout started (session storage: the hosted checkout is a full page
 * load away), so coming back without paying returns there, never to the dead checkout page.
 */
const ORIGIN_KEY = 'billing.checkoutFrom';

export function rememberCheckoutOrigin(path: string): void {
  try {
    window.sessionStorage.setItem(ORIGIN_KEY, path);
  } catch {
    // Storage unavailable: back goes to the pricing page.
  }
}

/** The in-app path the checkout started from, or null. Only same-origin paths are ever returned. */
export function checkoutOrigin(): string | null {
  try {
    const path = window.sessionStorage.getItem(ORIGIN_KEY);
    return path && path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/billing/') ? path : null;
  } catch {
    return null;
  }
}
