/** The names of this machine: one server, but three origins to a browser. */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

/**
 * The origins the site answers on: APP_URL's and, when APP_URL is this machine (localhost,
 * 127.0.0.1 or [::1], as with the local server), the same scheme and port under each of those
 * names. A deployed site has one: its own domain.
 */
export function siteOrigins(appUrl: string): string[] {
  const app = new URL(appUrl);
  if (!(LOOPBACK_HOSTS as readonly string[]).includes(app.hostname)) return [app.origin];
  return LOOPBACK_HOSTS.map((host) => `${app.protocol}//${host}${app.port ? `:${app.port}` : ''}`);
}

/**
 * The origin to send a browser back to after a page of another site (payment, subscription
 * portal): the one its request came from (the Origin header) when that is one of the site's, since
 * a browser keeps the session per origin; anything else (another site's origin, none) gets APP_URL's.
 */
export function returnOrigin(appUrl: string, callerOrigin: string | undefined): string {
  if (callerOrigin !== undefined && siteOrigins(appUrl).includes(callerOrigin)) return callerOrigin;
  return new URL(appUrl).origin;
}
