import type { AnalyticsRequest } from '@app/shared/schemas/site';
import { getToken } from './auth-token';
import { reportReachable } from './connectivity';

/*
 * The two calls every page view may make, sent with plain fetch rather than the typed
 * client: the typed client loads the route table with its zod schemas, which the home
 * page of a visitor never needs. The paths are those of the shared route table
 * (site-endpoints.test.ts checks they stay equal).
 */
export const MAINTENANCE_MODE_PATH = '/api/settings/construction-mode';
export const ANALYTICS_PATH = '/api/auth/analytics';

/** How long the maintenance check may take before the site is treated as open. */
export const MAINTENANCE_CHECK_TIMEOUT_MS = 5_000;

/** The maintenance check's request; undefined when it failed on the network (reported to connectivity.ts). */
async function requestMaintenanceMode(signal?: AbortSignal): Promise<Response | undefined> {
  try {
    const response = await fetch(MAINTENANCE_MODE_PATH, { headers: { accept: 'application/json' }, cache: 'no-store', signal });
    reportReachable(true);
    return response;
  } catch {
    if (!signal?.aborted) reportReachable(false);
    return undefined;
  }
}

/** Whether the server answers at all: the smallest request it serves, never from a cache. */
export const probeServer = async (): Promise<boolean> => (await requestMaintenanceMode()) !== undefined;

/** Whether the site is in maintenance mode. Any failure (network, status, body, timeout) means no. */
export async function fetchMaintenanceMode(): Promise<boolean> {
  try {
    const response = await requestMaintenanceMode(AbortSignal.timeout(MAINTENANCE_CHECK_TIMEOUT_MS));
    if (!response?.ok) return false;
    // The API names the flag `constructionMode`.
    const data = (await response.json()) as { constructionMode?: unknown } | null;
    return data?.constructionMode === true;
  } catch {
    return false;
  }
}

/** Records one visit; the answer is not read and errors are ignored. */
export async function postAnalytics(payload: AnalyticsRequest): Promise<void> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  try {
    await fetch(ANALYTICS_PATH, { method: 'POST', headers, body: JSON.stringify(payload), keepalive: true });
  } catch {
    // Ignored: analytics never get in the user's way.
  }
}

