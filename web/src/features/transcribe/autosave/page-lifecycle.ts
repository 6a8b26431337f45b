/**
 * The page events the autosave acts on: going away (pagehide), back from the back/forward
 * cache (pageshow, persisted), hidden (it may be frozen or killed next: tab switch, lid closed,
 * app switch on a phone) and back online. Returns the function that stops listening.
 */
export function onPageLifecycle(on: { leave(): void; back(): void; hidden(): void; online(): void }): () => void {
  if (typeof window === 'undefined') return () => undefined;
  const pagehide = () => on.leave();
  const pageshow = (event: PageTransitionEvent) => {
    if (event.persisted) on.back();
  };
  const visibilitychange = () => {
    if (document.visibilityState === 'hidden') on.hidden();
  };
  const online = () => on.online();
  window.addEventListener('pagehide', pagehide);
  window.addEventListener('pageshow', pageshow);
  window.addEventListener('online', online);
  document.addEventListener('visibilitychange', visibilitychange);
  return () => {
    window.removeEventListener('pagehide', pagehide);
    window.removeEventListener('pageshow', pageshow);
    window.removeEventListener('online', online);
    document.removeEventListener('visibilitychange', visibilitychange);
  };
}
