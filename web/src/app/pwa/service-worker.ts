/**
 * Registers the hand-written service worker (web/public/sw.js) in production builds,
 * after the page has loaded so it never competes with the first render. Once it is
 * active, it is told which built files this page already loaded, so the app shell
 * (index.html + the hashed assets of the first page) is cached from the first visit.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker
      .register('/sw.js')
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => {
        const urls = performance
          .getEntriesByType('resource')
          .map((entry) => entry.name)
          .filter((url) => url.startsWith(`${location.origin}/assets/`));
        registration.active?.postMessage({ type: 'cache-assets', urls });
      })
      .catch(() => undefined);
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
