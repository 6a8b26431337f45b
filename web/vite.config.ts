import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import type { Plugin } from 'vite';
import type { ChunkingContext } from 'rolldown';
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

const ENTRY = `${import.meta.dirname}/src/main.tsx`;

/**
 * The first load's modules (what the entry imports statically, transitively) in two files:
 * `framework`, the libraries (a file that changes only when they do), and `shell`, the app's
 * own modules that other routes' chunks share too; otherwise each such module is a tiny file of
 * its own (more requests, worse compression). Everything else stays split by route.
 */
function firstLoadChunk(id: string, ctx: ChunkingContext): string | null {
  let reachable = firstLoad.get(ctx);
  if (!reachable) {
    reachable = new Set<string>();
    const queue = [ENTRY];
    for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
      if (reachable.has(next)) continue;
      reachable.add(next);
      queue.push(...(ctx.getModuleInfo(next)?.importedIds ?? []));
    }
    firstLoad.set(ctx, reachable);
  }
  // TanStack Query's package index reaches every hook, lucide's every icon; left to the
  // default split, only the ones the first load uses land in it.
  if (!reachable.has(id) || /\/node_modules\/(@tanstack|lucide)\//.test(id)) return null;
  return id.includes('/node_modules/') ? 'framework' : 'shell';
}
const firstLoad = new WeakMap<ChunkingContext, Set<string>>();

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
    // The browsers the app runs on preload modules themselves.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: { groups: [{ name: firstLoadChunk }] },
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
