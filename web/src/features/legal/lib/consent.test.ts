import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '@app/shared/constants';
import { analyticsRequest } from '@app/shared/schemas/site';
import { json, mockFetch } from '../../../test/render';
import { deviceType, localDay, recordDailyVisit, visitPayload } from './analytics';
import { acceptCookies, hasConsent, measure, pageChanged } from './consent';
import { isUnmeasuredPath, measuredUrl } from './measured-url';
import { resetThirdPartyScripts } from './third-party';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  resetThirdPartyScripts();
});
afterEach(() => {
  document.head.querySelectorAll('script[src]').forEach((s) => s.remove());
  vi.unstubAllEnvs();
  window.history.replaceState(null, '', '/');
  delete window.gtag;
  delete window.dataLayer;
  delete window.clarity;
  delete window['ga-disable-G-TEST123'];
});

describe('analytics once a day', () => {
  it('sends nothing without consent', async () => {
    const calls = mockFetch(() => json(200, { ok: true }));
    vi.setSystemTime(new Date(2026, 0, 10, 9));
    expect(await recordDailyVisit()).toBe(false);
    expect(calls).toHaveLength(0);
  });

  it('records on acceptance, not again that day, and again the next day', async () => {
    const calls = mockFetch(() => json(200, { ok: true }));
    vi.setSystemTime(new Date(2026, 0, 10, 9, 0));
    expect(await acceptCookies()).toBe(true);
    expect(hasConsent()).toBe(true);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ route: 'analytics' });
    expect(analyticsRequest.safeParse(calls[0]!.body).success).toBe(true);
    expect(calls[0]!.body).toMatchObject({ cookies: true });
    expect(window.localStorage.getItem(STORAGE_KEYS.analyticsLastVisit)).toBe('2026-01-10');

    vi.setSystemTime(new Date(2026, 0, 10, 23, 59));
    expect(await recordDailyVisit()).toBe(false);
    expect(calls).toHaveLength(1);

    vi.setSystemTime(new Date(2026, 0, 11, 0, 1));
    expect(await recordDailyVisit()).toBe(true);
    expect(await recordDailyVisit()).toBe(false);
    expect(calls).toHaveLength(2);
  });

  it('ignores errors (and still counts the day)', async () => {
    mockFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    window.localStorage.setItem(STORAGE_KEYS.cookiesAccepted, 'true');
    vi.setSystemTime(new Date(2026, 5, 1, 12));
    await expect(recordDailyVisit()).resolves.toBe(true);
    await expect(recordDailyVisit()).resolves.toBe(false);
  });

  it('sends the analytics payload', () => {
    window.localStorage.setItem(STORAGE_KEYS.cookiesAccepted, 'true');
    const payload = visitPayload();
    expect(payload.screen).toMatch(/^\d+x\d+$/);
    expect(payload.cookies).toBe(true);
    expect(analyticsRequest.safeParse(payload).success).toBe(true);
  });

  it('uses the local calendar day', () => {
    expect(localDay(new Date(2026, 11, 31, 23, 30))).toBe('2026-12-31');
  });
});

describe('device type', () => {
  it('tells mobile, tablet and desktop apart', () => {
    expect(deviceType('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36')).toBe('mobile');
    expect(deviceType('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)')).toBe('mobile');
    expect(deviceType('Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 Chrome/120 Safari/537.36')).toBe('tablet');
    expect(deviceType('Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)')).toBe('tablet');
    expect(deviceType('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', 5)).toBe('tablet');
    expect(deviceType('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', 0)).toBe('desktop');
    expect(deviceType('Mozilla/5.0 (X11; Linux x86_64) Chrome/120')).toBe('desktop');
  });
});

describe('third-party scripts', () => {
  const scripts = () => [...document.head.querySelectorAll('script[src]')].map((s) => s.getAttribute('src'));

  it('loads nothing when no id is configured', async () => {
    mockFetch(() => json(200, { ok: true }));
    vi.stubEnv('VITE_ANALYTICS_ID', '');
    vi.stubEnv('VITE_SESSION_RECORDING_ID', '');
    await acceptCookies();
    expect(scripts()).toEqual([]);
  });

  it('loads the configured analytics and session recording after consent only', async () => {
    mockFetch(() => json(200, { ok: true }));
    vi.stubEnv('VITE_ANALYTICS_ID', 'G-TEST123');
    vi.stubEnv('VITE_SESSION_RECORDING_ID', 'abc123');
    await recordDailyVisit();
    expect(scripts()).toEqual([]);
    await acceptCookies();
    expect(scripts()).toEqual(['https://www.googletagmanager.com/gtag/js?id=G-TEST123', 'https://www.clarity.ms/tag/abc123']);
  });
});

describe('what measurement may see', () => {
  const scripts = () => [...document.head.querySelectorAll('script[src]')].map((s) => s.getAttribute('src'));
  const configure = () => {
    mockFetch(() => json(200, { ok: true }));
    vi.stubEnv('VITE_ANALYTICS_ID', 'G-TEST123');
    vi.stubEnv('VITE_SESSION_RECORDING_ID', 'abc123');
  };

  it('measures no live captions page and no password reset, with or without consent', async () => {
    expect(['/live/AbCdEfGhIjKl', '/live', '/reset-password/tok', '/reset-password', '/verify-email'].every(isUnmeasuredPath)).toBe(true);
    expect(['/', '/help', '/lively', '/transcricoes', '/verify-emails'].some(isUnmeasuredPath)).toBe(false);
    configure();
    const calls = mockFetch(() => json(200, { ok: true }));
    window.history.replaceState(null, '', '/live/AbCdEfGhIjKl');
    expect(await acceptCookies()).toBe(false);
    expect(await measure()).toBe(false);
    expect(scripts()).toEqual([]);
    expect(calls).toHaveLength(0);
  });

  it('gives analytics addresses without codes, tokens, queries or fragments', async () => {
    expect(measuredUrl('https://x.test/live/AbCdEfGhIjKl?after=5#end')).toBe('https://x.test/live/:code');
    expect(measuredUrl('https://x.test/reset-password/secret-token')).toBe('https://x.test/reset-password/:token');
    expect(measuredUrl('https://x.test/billing/success?session_id=cs_123')).toBe('https://x.test/billing/success');
    configure();
    window.history.replaceState(null, '', '/billing/success?session_id=cs_123');
    await acceptCookies();
    expect(window.dataLayer!.map((args) => [...(args as unknown[])])).toContainEqual(['config', 'G-TEST123', { anonymize_ip: true, page_location: `${window.location.origin}/billing/success` }]);
  });

  it('switches analytics off and ends session recording on reaching an unmeasured page; analytics on again after it', async () => {
    configure();
    window.history.replaceState(null, '', '/help');
    await acceptCookies();
    window.history.pushState(null, '', '/live/AbCdEfGhIjKl');
    pageChanged();
    await vi.waitFor(() => expect(window['ga-disable-G-TEST123']).toBe(true));
    expect(window.clarity!.q).toContainEqual(['stop']);
    expect(window.dataLayer!.map((args) => [...(args as unknown[])])).toContainEqual(['set', { page_location: `${window.location.origin}/live/:code` }]);
    window.history.pushState(null, '', '/pricing');
    pageChanged();
    await vi.waitFor(() => expect(window['ga-disable-G-TEST123']).toBe(false));
  });
});

