/**
 * Whether the app can reach its server, for the offline banner. `navigator.onLine` alone is not
 * enough: it says only that some network is connected, so it stays true behind a dead Wi-Fi or a
 * captive portal, and some Chrome versions keep it true in a page the service worker served while
 * offline. So a request to our server that fails at the network level also means offline, until
 * a request gets through again: meanwhile, while the offline state is shown (subscribed to), one
 * cheap request (`probe`) tries every PROBE_MS, and at once when the browser says the network is
 * back or the tab is shown again.
 */

/** How often the server is tried while it is unreachable. */
export const PROBE_MS = 3_000;

let unreachable = false;
let timer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();
/** The request that tells whether the server answers (set by the app: a tiny GET the service worker never serves). */
let probe: (() => Promise<boolean>) | undefined;

function set(value: boolean): void {
  if (unreachable === value) return;
  unreachable = value;
  for (const listener of listeners) listener();
}

/** Probes while the server is unreachable and something shows it (a subscriber): nobody else needs to know. */
function schedule(delay: number): void {
  clearTimeout(timer);
  timer = undefined;
  if (!unreachable || !probe || listeners.size === 0) return;
  timer = setTimeout(() => {
    timer = undefined;
    void probe?.().then((ok) => reportReachable(ok), () => reportReachable(false));
  }, delay);
}

/** Every request to our server says whether it got an answer (any HTTP status) or failed on the network. */
export function reportReachable(answered: boolean): void {
  set(!answered);
  if (answered) {
    clearTimeout(timer);
    timer = undefined;
  } else if (timer === undefined) schedule(PROBE_MS);
}

/** The request `reportReachable(false)` repeats until the server answers. */
export function setReachabilityProbe(request: () => Promise<boolean>): void {
  probe = request;
}

/** Try again now (the network came back, the tab is visible again). */
const retry = () => {
  if (unreachable) schedule(0);
};

export function subscribeOnline(listener: () => void): () => void {
  if (listeners.size === 0) {
    window.addEventListener('online', retry);
    document.addEventListener('visibilitychange', retry);
  }
  listeners.add(listener);
  if (timer === undefined) schedule(PROBE_MS);
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
    if (listeners.size === 0) {
      window.removeEventListener('online', retry);
      document.removeEventListener('visibilitychange', retry);
      clearTimeout(timer);
      timer = undefined;
    }
  };
}

/** Online: the browser has a network and the last request to our server got an answer. */
export const isOnline = (): boolean => navigator.onLine && !unreachable;
