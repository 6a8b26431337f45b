import { STORAGE_KEYS } from '@app/shared/constants';
import type { User } from '@app/shared/schemas/auth';
import { readStorage, writeStorage } from '../../../lib/storage';

/** How long a signed-in user uses the site (in one page view) before the survey offers itself. */
export const SURVEY_DELAY_MS = 2 * 60_000;
/** When the moment is wrong (another dialog open, a quiet page), look again after this. */
export const SURVEY_RETRY_MS = 5_000;

/**
 * Pages the survey never interrupts: the transcriber (home), the account forms and the
 * checkout return pages. It waits until the user is elsewhere.
 */
export function isQuietPage(pathname: string): boolean {
  return (
    pathname === '/' ||
    ['/login', '/register', '/forgot-password', '/reset-password', '/billing/'].some((p) => pathname === p || pathname.startsWith(p))
  );
}

/** Ids of the users this device has shown the survey to (STORAGE_KEYS.surveyShown). */
const shownIds = (): string[] => (readStorage(STORAGE_KEYS.surveyShown) ?? '').split(',').filter(Boolean);

/** Whether this user has already seen the survey, on their account or on this device. */
export function surveyAlreadyShown(user: Pick<User, 'id' | 'surveyShown'>): boolean {
  return user.surveyShown || shownIds().includes(user.id);
}

export function rememberSurveyShown(userId: string): void {
  const ids = shownIds();
  if (!ids.includes(userId)) writeStorage(STORAGE_KEYS.surveyShown, [...ids, userId].slice(-20).join(','));
}
