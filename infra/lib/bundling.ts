import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildSync, type BuildOptions } from 'esbuild';
import { handlerEntry } from './paths.ts';

/**
 * How every handler is bundled: used by the CDK functions (api-function.ts) and by the
 * handler benchmark (bench/handlers.ts), so the benchmark measures what is deployed.
 */
/** Makes ESM bundles that contain CommonJS dependencies work (`Dynamic require of ...`). */
export const ESM_REQUIRE_BANNER = "import{createRequire}from'module';const require=createRequire(import.meta.url);";

export const HANDLER_BUNDLING = {
  target: 'node22',
  mainFields: ['module', 'main'],
  minify: true,
  banner: ESM_REQUIRE_BANNER,
  /**
   * Nothing external: the AWS SDK is bundled and tree-shaken too. Loading the runtime's
   * unbundled SDK (hundreds of CommonJS files) costs 120-230 ms cold; bundled, ~60-80 ms.
   */
  externalModules: [] as string[],
} as const;

/** The file Lambda loads from a handler's folder, and its export: `index.handler`. */
export const HANDLER_FILE = 'index.mjs';
export const LAMBDA_HANDLER = 'index.handler';

/** The esbuild options of every handler bundle: one ESM file with everything in it, minified, with a source map that holds no sources. */
export const HANDLER_BUILD_OPTIONS: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: HANDLER_BUNDLING.target,
  mainFields: [...HANDLER_BUNDLING.mainFields],
  minify: HANDLER_BUNDLING.minify,
  sourcemap: true,
  sourcesContent: false,
  banner: { js: HANDLER_BUNDLING.banner },
  external: [...HANDLER_BUNDLING.externalModules],
  outExtension: { '.js': '.mjs' },
  logLevel: 'error',
};

const built = new Map<string, string>();
process.once('exit', () => {
  for (const dir of built.values()) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * Bundles route-table handlers (`auth/login`...) in one esbuild run, so the modules they share
 * (the AWS SDK, zod, the handler wrapper) are read and parsed once instead of once per function,
 * and returns the folder holding `<handler>/index.mjs` (and its source map) for each. Kept for the
 * process: every function of a stack asks with the same list, and the first one builds.
 */
export function bundleHandlers(handlers: Iterable<string>): string {
  const list = [...new Set(handlers)].sort();
  const key = list.join('\n');
  let dir = built.get(key);
  if (!dir) {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'handler-bundles-'));
    built.set(key, dir);
    buildSync({ ...HANDLER_BUILD_OPTIONS, entryPoints: Object.fromEntries(list.map((h) => [`${h}/index`, handlerEntry(h)])), outdir: dir });
  }
  return dir;
}
