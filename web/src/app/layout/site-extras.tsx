import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { hasConsent, measure, pageChanged } from '../../features/legal/lib/consent';
import { isUnmeasuredPath } from '../../features/legal/lib/measured-url';
import { CookieBanner } from '../../features/legal/components/cookie-banner';
import { SurveyLauncher } from '../../features/survey/components/survey-launcher';

/**
 * After the page has loaded: with consent, the configured scripts and today's visit record (their
 * code loads only then); not on an unmeasured page (a live captions page, a password reset), and
 * each later page of the same load is told to measurement.
 */
function useMeasurement() {
  const { pathname } = useLocation();
  const unmeasured = isUnmeasuredPath(pathname);
  useEffect(() => {
    pageChanged();
  }, [pathname]);
  useEffect(() => {
    if (!hasConsent() || unmeasured) return;
    const run = () => void measure();
    if ('requestIdleCallback' in window) {
      const id = window.requestIdleCallback(run, { timeout: 5_000 });
      return () => window.cancelIdleCallback(id);
    }
    const timer = setTimeout(run, 1_000);
    return () => clearTimeout(timer);
  }, [unmeasured]);
}

/** The site-wide extras of the layout: cookie notice, measurement, survey. */
export function SiteExtras() {
  useMeasurement();
  return (
    <>
      <CookieBanner />
      <SurveyLauncher />
    </>
  );
}
