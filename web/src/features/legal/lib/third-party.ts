import { isUnmeasuredPath, measuredUrl } from './measured-url';

/*
 * Third-party measurement, only after cookie consent and only when configured at build time:
 * VITE_ANALYTICS_ID (a Google Analytics 4 measurement id) and VITE_SESSION_RECORDING_ID
 * (a Microsoft Clarity project id). Without them nothing is loaded. Neither runs on an
 * unmeasured page (measured-url.ts); analytics gets addresses without codes, tokens or queries,
 * and session recording masks the user's own text (lib/private-text.ts).
 */
type Queue = { (...args: unknown[]): void; q?: unknown[][] };
declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: (...args: unknown[]) => void;
    clarity?: Queue;
    [disable: `ga-disable-${string}`]: boolean | undefined;
  }
}

let loaded = false;

function addScript(src: string): void {
  const script = document.createElement('script');
  script.async = true;
  script.src = src;
  document.head.appendChild(script);
}

/** Call only with consent, never on an unmeasured page. Loads each configured script once per page view. */
export function loadThirdPartyScripts(): void {
  if (loaded || isUnmeasuredPath(window.location.pathname)) return;
  loaded = true;
  const analyticsId = import.meta.env.VITE_ANALYTICS_ID;
  const recordingId = import.meta.env.VITE_SESSION_RECORDING_ID;
  if (analyticsId) {
    const dataLayer = (window.dataLayer ??= []);
    window.gtag = function gtag() {
      // gtag.js reads the arguments object itself.
      // eslint-disable-next-line prefer-rest-params
      dataLayer.push(arguments);
    };
    window.gtag('js', new Date());
    window.gtag('config', analyticsId, { anonymize_ip: true, page_location: measuredUrl(window.location.href) });
    addScript(`https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(analyticsId)}`);
  }
  if (recordingId) {
    const clarity: Queue =
      window.clarity ??
      Object.assign((...args: unknown[]) => {
        (clarity.q ??= []).push(args);
      }, {});
    window.clarity = clarity;
    addScript(`https://www.clarity.ms/tag/${encodeURIComponent(recordingId)}`);
  }
}

/**
 * The app moved to another page (within the same page load): analytics gets its address without
 * secrets, and is switched off on an unmeasured page (Google's documented `ga-disable-<id>`);
 * session recording ends there for the rest of the page load.
 */
export function thirdPartyPageChanged(): void {
  if (!loaded) return;
  const unmeasured = isUnmeasuredPath(window.location.pathname);
  const analyticsId = import.meta.env.VITE_ANALYTICS_ID;
  if (analyticsId) {
    window[`ga-disable-${analyticsId}`] = unmeasured;
    window.gtag?.('set', { page_location: measuredUrl(window.location.href) });
  }
  if (unmeasured) window.clarity?.('stop');
}

/** Tests: allow loading again. */
export function resetThirdPartyScripts(): void {
  loaded = false;
}
