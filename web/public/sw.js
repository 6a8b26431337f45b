/*
 * Live Transcribe service worker (hand-written, no build step).
 *
 * - App shell: index.html and the hashed files under /assets/ are cached, so the app opens
 *   offline (it then shows its offline banner).
 * - Navigations: network first, falling back to the cached shell.
 * - /assets/*: cache first (file names carry a content hash, so a cached file never changes).
 * - Other static files (manifest, icons): cached copy at once, refreshed in the background.
 * - Never touched: the API (/api/*, /stripe/*, /contact, /transcriptions/*), other origins,
 *   and anything but GET.
 */
const VERSION = 'v1';
const SHELL_CACHE = `shell-${VERSION}`;
const ASSET_CACHE = `assets-${VERSION}`;
const SHELL_URL = '/index.html';
const PRECACHE = [SHELL_URL, '/manifest.webmanifest', '/favicon.svg', '/icons/icon-192.png'];
/** CloudFront's API path patterns (`*`: any characters), as the route table derives them (sw.test.ts checks). */
const API_PATTERNS = ['/api/*', '/transcriptions/*', '/stripe/*', '/contact'];
/** Old builds' assets are dropped beyond this many files (oldest first). */
const MAX_ASSETS = 150;

const isApi = (path) => API_PATTERNS.some((pattern) => (pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : path === pattern));
const isAsset = (path) => path.startsWith('/assets/');
/** The SPA's own index.html (and not some other HTML page of the server). */
const isShell = (html) => html.includes('<div id="root">');

async function cacheShell(response) {
  if (!response.ok || !(response.headers.get('content-type') || '').includes('text/html')) return;
  const html = await response.clone().text();
  if (!isShell(html)) return;
  const cache = await caches.open(SHELL_CACHE);
  await cache.put(SHELL_URL, response);
  await cacheAssets(assetsOf(html));
}

/** The /assets/ files an index.html references (entry chunk, its preloads, the stylesheet). */
function assetsOf(html) {
  return [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
}

async function cacheAssets(urls) {
  const cache = await caches.open(ASSET_CACHE);
  await Promise.all(
    urls.map(async (url) => {
      const path = new URL(url, self.location.origin).pathname;
      if (!isAsset(path) || (await cache.match(path))) return;
      const response = await fetch(path).catch(() => undefined);
      if (response && response.ok) await cache.put(path, response);
    }),
  );
  await trimAssets(cache);
}

async function trimAssets(cache) {
  const keys = await cache.keys();
  await Promise.all(keys.slice(0, Math.max(0, keys.length - MAX_ASSETS)).map((key) => cache.delete(key)));
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL_CACHE);
      await Promise.all(PRECACHE.slice(1).map((url) => cache.add(url).catch(() => undefined)));
      const shell = await fetch(SHELL_URL, { cache: 'no-cache' }).catch(() => undefined);
      if (shell) await cacheShell(shell);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const keep = new Set([SHELL_CACHE, ASSET_CACHE]);
      for (const name of await caches.keys()) if (!keep.has(name)) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

/** The page lists the built files it loaded before this worker controlled it. */
self.addEventListener('message', (event) => {
  const data = event.data;
  if (data && data.type === 'cache-assets' && Array.isArray(data.urls)) {
    event.waitUntil(cacheAssets(data.urls.filter((url) => typeof url === 'string')));
  }
});

async function navigation(request) {
  try {
    const response = await fetch(request);
    // Keep the newest shell for offline use (without delaying the page).
    cacheShell(response.clone()).catch(() => undefined);
    return response;
  } catch (error) {
    const cached = await caches.match(SHELL_URL, { cacheName: SHELL_CACHE });
    if (cached) return cached;
    throw error;
  }
}

async function asset(request, path) {
  const cache = await caches.open(ASSET_CACHE);
  const cached = await cache.match(path);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) cache.put(path, response.clone()).then(() => trimAssets(cache)).catch(() => undefined);
  return response;
}

async function staticFile(request, path) {
  const cache = await caches.open(SHELL_CACHE);
  const cached = await cache.match(path);
  const refresh = fetch(request)
    .then((response) => {
      if (response.ok) cache.put(path, response.clone()).catch(() => undefined);
      return response;
    })
    .catch(() => undefined);
  if (cached) return cached;
  const response = await refresh;
  return response || Response.error();
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || isApi(url.pathname)) return;
  if (request.mode === 'navigate') return event.respondWith(navigation(request));
  if (isAsset(url.pathname)) return event.respondWith(asset(request, url.pathname));
  if (url.pathname === '/sw.js') return;
  if (PRECACHE.includes(url.pathname) || url.pathname.startsWith('/icons/')) return event.respondWith(staticFile(request, url.pathname));
});
