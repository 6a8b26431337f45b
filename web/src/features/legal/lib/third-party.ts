/*
 * Third-party measurement, only after cookie consent and only when configured at build time:
 * VITE_ANALYTICS_ID (a Google Analytics 4 measurement id) and VITE_SESSION_RECORDING_ID
 * (a Microsoft Clarity project id). Without them nothing is loaded.
 */
type Queue = { (...args: unknown[]): void; q?: unknown[][] };
declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: (...args: unknown[]) => void;
    clarity?: Queue;
  }
}

let loaded = false;

function addScript(src: string): void {
  const script = document.createElement('script');
  script.async = true;
  script.src = src;
  document.head.appendChild(script);
}

/** Call only with consent. Loads each configured script once per page view. */
export function loadThirdPartyScripts(): void {
  if (loaded) return;
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
    window.gtag('config', analyticsId, { anonymize_ip: true });
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

/** Tests: allow loading again. */
export function resetThirdPartyScripts(): void {
  loaded = false;
}
