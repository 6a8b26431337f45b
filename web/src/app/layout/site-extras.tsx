import { useEffect } from 'react';
import { hasConsent, measure } from '../../features/legal/lib/consent';
import { CookieBanner } from '../../features/legal/components/cookie-banner';
import { SurveyLauncher } from '../../features/survey/components/survey-launcher';

/** After the page has loaded: with consent, the configured scripts and today's visit record (their code loads only then). */
function useMeasurement() {
  useEffect(() => {
    if (!hasConsent()) return;
    const run = () => void measure();
    if ('requestIdleCallback' in window) {
      const id = window.requestIdleCallback(run, { timeout: 5_000 });
      return () => window.cancelIdleCallback(id);
    }
    const timer = setTimeout(run, 1_000);
    return () => clearTimeout(timer);
  }, []);
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
