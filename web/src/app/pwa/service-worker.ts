/**
 * Registers the hand-written service worker (web/public/sw.js) in production builds,
 * once the page has loaded and the main thread is idle (the first page rendered), so its
 * caching requests never compete with the first render. Once it is
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
  const whenIdle = () => {
    if ('requestIdleCallback' in window) requestIdleCallback(register, { timeout: 5_000 });
    else setTimeout(register, 1_000);
  };
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
