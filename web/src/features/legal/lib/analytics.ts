import { STORAGE_KEYS } from '@app/shared/constants';
import type { AnalyticsRequest } from '@app/shared/schemas/site';
import { readStorage, writeStorage } from '../../../lib/storage';
import { request } from '../../../lib/api';
import { hasConsent } from './consent';
import { loadThirdPartyScripts, thirdPartyPageChanged } from './third-party';

/*
 * First-party analytics, loaded only with consent: one visit is recorded at once and then at
 * most one a day (the day of the last record is kept in device storage); third-party scripts
 * load only when configured.
 */

/** The local calendar day, `yyyy-mm-dd`: "once a day" follows the visitor's own clock. */
export function localDay(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** mobile, tablet or desktop, from the user agent and the screen. */
export function deviceType(userAgent: string, maxTouchPoints = 0): AnalyticsRequest['deviceType'] {
  if (/iPad|Tablet|PlayBook|Silk|Kindle/i.test(userAgent) || (/Android/i.test(userAgent) && !/Mobile/i.test(userAgent))) return 'tablet';
  // iPadOS presents itself as a Mac with a touch screen.
  if (/Macintosh/i.test(userAgent) && maxTouchPoints > 1) return 'tablet';
  if (/Mobi|iPhone|iPod|Android|Windows Phone/i.test(userAgent)) return 'mobile';
  return 'desktop';
}

export function visitPayload(): AnalyticsRequest {
  const nav = window.navigator as Navigator & { userAgentData?: { platform?: string } };
  let timezone = 'UTC';
  try {
    timezone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    // keep UTC
  }
  return {
    cookies: hasConsent(),
    userAgent: nav.userAgent.slice(0, 512),
    language: (nav.language || 'und').slice(0, 35),
    screen: `${Math.round(window.screen.width) || 0}x${Math.round(window.screen.height) || 0}`,
    timezone: timezone.slice(0, 64),
    platform: (nav.userAgentData?.platform || nav.platform || '').slice(0, 64),
    deviceType: deviceType(nav.userAgent, nav.maxTouchPoints),
  };
}

/** Records one visit (in a request that outlives the page); the answer is not read and errors are ignored: analytics never get in the user's way. */
export async function postAnalytics(payload: AnalyticsRequest): Promise<void> {
  await request('analytics', { body: payload, keepalive: true }).catch(() => undefined);
}

/**
 * Records today's visit unless one was already recorded today or there is no consent.
 * The day is stored before sending, so two tabs opened together send once.
 * Resolves to whether a record was sent.
 */
export async function recordDailyVisit(now: Date = new Date()): Promise<boolean> {
  if (!hasConsent()) return false;
  const today = localDay(now);
  if (readStorage(STORAGE_KEYS.analyticsLastVisit) === today) return false;
  writeStorage(STORAGE_KEYS.analyticsLastVisit, today);
  await postAnalytics(visitPayload());
  return true;
}

/** With consent: the configured scripts load and today's visit is recorded. Resolves to whether a record was sent. */
export function measure(): Promise<boolean> {
  loadThirdPartyScripts();
  return recordDailyVisit();
}

export { thirdPartyPageChanged as pageChanged };
