import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { routes } from '../shared/src/routes.ts';

/**
 * `virtual:route-map`: each route's method, path and auth level, taken from the shared route
 * table at build time. The typed client calls routes with it, so the schemas (and zod) load only
 * with the forms that validate.
 */
function routeMap(): Plugin {
  const id = 'virtual:route-map';
  const map = Object.fromEntries(Object.entries(routes).map(([name, r]) => [name, { method: r.method, path: r.path, auth: r.auth }]));
  return {
    name: 'route-map',
    resolveId: (source) => (source === id ? `\0${id}` : undefined),
    load: (resolved) => (resolved === `\0${id}` ? `export default ${JSON.stringify(map)};` : undefined),
  };
}

/** Libraries every page needs before it renders. */
const FIRST_LOAD_LIBRARIES = /node_modules\/(react|react-dom|scheduler|react-router|@tanstack|i18next|react-i18next|use-sync-external-store)\//;
/** App modules the home route loads that other routes' chunks share too (else each is a tiny file of its own). */
const FIRST_LOAD_SHARED_MODULES =
  /(web\/src\/(lib\/(api|storage|visit)\.ts|components\/ui\/card\.tsx|features\/transcribe\/lib\/token-owner\.ts)|shared\/src\/constants\.ts)$/;

/** Paths the local server (npm run dev at the repo root, port 3000) answers; vite dev proxies them. */
const API_PREFIXES = ['/api', '/stripe', '/contact', '/transcriptions'];
const API_TARGET = process.env.API_TARGET ?? 'http://localhost:3000';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), tailwindcss(), routeMap()],
  resolve: {
    // zod, jitless before any schema is built (see src/lib/zod-jitless.ts).
    alias: [{ find: /^zod$/, replacement: `${import.meta.dirname}/src/lib/zod-jitless.ts` }],
  },
  server: {
    proxy: Object.fromEntries(API_PREFIXES.map((prefix) => [prefix, { target: API_TARGET, changeOrigin: false }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // What every page loads first comes in two files instead of a dozen small ones (fewer
        // requests, better compression): the libraries (a file that changes only when they do)
        // and the app's own modules the home route shares with other pages. Anything else
        // stays split by route.
        codeSplitting: {
          groups: [
            { name: 'framework', test: FIRST_LOAD_LIBRARIES },
            { name: 'shell', test: FIRST_LOAD_SHARED_MODULES },
          ],
        },
      },
    },
  },
  // This file is also the vitest project for the web workspace (listed in the root vitest.config.ts).
  test: {
    name: 'web',
    root: import.meta.dirname,
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    css: false,
  },
});
