import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import type { Plugin, Rollup } from 'vite';
import type { ChunkingContext } from 'rolldown';
import { defineConfig } from 'vitest/config';
import { apiPathPatterns, pathPatternSource, routes } from '../shared/src/routes.ts';
import { compileHints } from './build/compile-hints.ts';
import { libraryEdits } from './build/library-edits.ts';

/**
 * `virtual:route-map`: each route's method, path and auth level, taken from the shared route
 * table at build time, as one string (`POST /api/auth/login none`: the first load carries every
 * route, and three named fields a route cost it 0.15 KB gzipped). The typed client calls routes
 * with it (lib/api.ts, routeDef), so the schemas (and zod) load only with the forms that validate.
 */
function routeMap(): Plugin {
  const id = 'virtual:route-map';
  const map = Object.fromEntries(Object.entries(routes).map(([name, r]) => [name, `${r.method} ${r.path} ${r.auth}`]));
  return {
    name: 'route-map',
    resolveId: (source) => (source === id ? `\0${id}` : undefined),
    load: (resolved) => (resolved === `\0${id}` ? `export default ${JSON.stringify(map)};` : undefined),
  };
}

const ENTRY = `${import.meta.dirname}/src/main.tsx`;
const HOME = `${import.meta.dirname}/src/app/routes/home/home-page.tsx`;

/** Every module `start` imports statically, transitively. */
function reach(start: string, ctx: ChunkingContext): Set<string> {
  const reachable = new Set<string>();
  const queue = [start];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    if (reachable.has(next)) continue;
    reachable.add(next);
    queue.push(...(ctx.getModuleInfo(next)?.importedIds ?? []));
  }
  return reachable;
}
/**
 * The first load in few files: what the entry imports statically (transitively) goes to
 * `framework` (the libraries: a file that changes only when they do) and `shell` (the app's own
 * modules); so do the home route's modules that other routes' chunks share too, which would
 * otherwise be a tiny file each (more requests, worse compression). The home page itself and
 * everything else stay split by route. lucide's package index reaches
 * every icon: it is left to the default split, which takes only what is used.
 */
function firstLoadChunk(id: string, ctx: ChunkingContext): string | null {
  let graphs = firstLoad.get(ctx);
  if (!graphs) firstLoad.set(ctx, (graphs = { entry: reach(ENTRY, ctx), home: reach(HOME, ctx) }));
  if (/\/node_modules\/lucide\//.test(id)) return null;
  if (graphs.entry.has(id)) return id.includes('/node_modules/') ? 'framework' : 'shell';
  if (id !== HOME && graphs.home.has(id) && !id.includes('/node_modules/')) {
    const info = ctx.getModuleInfo(id);
    if ([...(info?.importers ?? []), ...(info?.dynamicImporters ?? [])].some((i) => !graphs.home.has(i))) return 'shell';
  }
  return null;
}
const firstLoad = new WeakMap<ChunkingContext, { entry: Set<string>; home: Set<string> }>();

/** The built entry's files (it and what it imports statically, transitively) and the home page's chunk. */
function firstLoadChunks(chunks: Rollup.OutputChunk[]): { firstLoad: Set<string>; home: Rollup.OutputChunk } | undefined {
  const home = chunks.find((c) => c.facadeModuleId === HOME);
  // The chunk holding main.tsx (by its modules: a plugin's late view of the bundle may not flag it as the entry).
  const entry = chunks.find((c) => c.moduleIds.includes(ENTRY));
  if (!home || !entry) return undefined;
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const firstLoad = new Set<string>();
  const queue = [entry.fileName];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    if (firstLoad.has(next)) continue;
    firstLoad.add(next);
    queue.push(...(byName.get(next)?.imports ?? []));
  }
  return { firstLoad, home };
}

/** What `/` runs as it starts: the first-load files and the home page's chunk with its imports (none in a worker's build). */
function homeFirstLoad(chunks: Rollup.OutputChunk[]): Set<string> {
  const app = firstLoadChunks(chunks);
  return new Set(app ? [...app.firstLoad, app.home.fileName, ...app.home.imports] : []);
}

/**
 * On `/`, index.html asks for the home page's chunk (and what it imports beyond the first load)
 * with `modulepreload` alongside the first-load files, instead of after they have run: one round
 * trip less before the home page renders. Other paths download nothing extra.
 */
function firstLoadHtml(): Plugin {
  return {
    name: 'first-load-html',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
        const app = firstLoadChunks(chunks);
        if (!app) throw new Error('first-load-html: the entry or the home page chunk is missing from the build');
        const { home, firstLoad } = app;
        const homeFiles = [home.fileName, ...home.imports.filter((f) => !firstLoad.has(f))].map((f) => `/${f}`);

        const at = html.indexOf('<script type="module"');
        if (at < 0) throw new Error('first-load-html: index.html has no module script');
        // Before the stylesheet: an inline script after one waits for it to load.
        const homePreload = `<script>if(location.pathname==='/')for(const f of ${JSON.stringify(homeFiles)}){const l=document.createElement('link');l.rel='modulepreload';l.href=f;document.head.append(l)}</script>`;
        return `${html.slice(0, at)}${homePreload}\n    ${html.slice(at)}`;
      },
    },
  };
}

/**
 * The API's paths (apiPathPatterns, from the route table), which vite dev proxies to the local
 * server (npm run dev at the repo root, port 3000). Vite matches a proxy key starting with `^` as
 * a regular expression over the path and its query string.
 */
const API_PROXY_KEYS = apiPathPatterns().map((pattern) => `^${pathPatternSource(pattern)}(?:\\?|$)`);
const API_TARGET = process.env.API_TARGET ?? 'http://localhost:3000';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), tailwindcss(), routeMap(), firstLoadHtml(), libraryEdits(), compileHints(homeFirstLoad)],
  resolve: {
    // zod, jitless before any schema is built (see src/lib/zod-jitless.ts).
    alias: [
      { find: /^zod$/, replacement: `${import.meta.dirname}/src/lib/zod-jitless.ts` },
      // react-i18next's fallback for Reacts before 18; React 19 has useSyncExternalStore itself.
      { find: /^use-sync-external-store\/shim$/, replacement: 'react' },
    ],
  },
  server: {
    proxy: Object.fromEntries(API_PROXY_KEYS.map((key) => [key, { target: API_TARGET, changeOrigin: false }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Maps for reading a stack trace, not named in the files: the deploy leaves them out (infra/lib/web.ts).
    sourcemap: 'hidden',
    // The browsers the app runs on preload modules themselves.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: { groups: [{ name: firstLoadChunk }] },
      },
    },
  },
  // This file is also the vitest project for the web workspace (listed in the root vitest.config.ts).
  // The root vitest.config.ts makes the web's vitest projects from this (which files, which pool).
  test: {
    root: import.meta.dirname,
    environment: 'jsdom',
    setupFiles: ['src/test/setup.ts'],
    css: false,
    // Above the 5 s a findBy* may wait (src/test/setup.ts), so a slow render fails as what was not found.
    testTimeout: 15_000,
  },
});
