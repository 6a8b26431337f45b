import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { launch as launchChrome } from 'chrome-launcher';
import { freePort } from '../functions/src/local/dynamo.ts';
import { routes } from '../shared/src/routes.ts';
import { LOWEST_PRIORITY, setTreePriority, startServer } from './transcribe.ts';

/**
 * Lighthouse (mobile: its default emulation and simulated throttling) on `/` of the production
 * build (web/dist, built beforehand) served by the local server, as a first-time visitor, in a
 * fresh Chromium each run. Only the browser runs at normal CPU priority: the local server and
 * Lighthouse's own process run at the lowest, so the page's tasks are timed as a phone's browser
 * would run them, not lengthened by the tools' work on the same 2 cores.
 * Prints the performance, accessibility, best-practices and SEO scores (median run of
 * LIGHTHOUSE_RUNS, default 3) and the home route's JavaScript: every script the page loaded,
 * gzipped, and which of them carry zod or the shared schemas (their source maps tell).
 * Budgets: performance >= 97, accessibility 100, best practices >= 95, home JS <= 130 KB gzip,
 * no zod and no shared schemas in the first load.
 */
const root = resolve(import.meta.dirname, '..');
const webDist = resolve(process.env.BENCH_WEB_DIST ?? join(root, 'web/dist'));
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));
const BUDGET = { performance: 97, accessibility: 100, 'best-practices': 95, jsKb: 130 };
/** Sources that belong to forms and the typed client's validation, never to the first load. */
const SCHEMA_SOURCE = /node_modules\/zod\/|shared\/src\/(schemas\/|routes\.ts)/;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];

interface Lhr {
  categories: Record<Category, { score: number | null }>;
  audits: Record<string, { numericValue?: number; displayValue?: string; details?: { items?: { url: string; resourceType?: string; transferSize?: number }[] } }>;
  runtimeError?: { message: string };
}

function chromiumPath(): string {
  if (process.env.CHROME_PATH) return process.env.CHROME_PATH;
  return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim();
}

/**
 * Desktop Chromium preloads its own browser-UI pages (tab search, the omnibox popup: hundreds of
 * chrome:// files) at start-up, while Lighthouse loads the page; on a 2-core machine that delayed
 * the page's first paint by 1-2 s in some runs. A phone's Chrome has no such pages.
 */
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-features=PreloadTopChromeWebUI'];

/**
 * Runs the Lighthouse CLI (lighthouse ~12.8: Node 20) once, in a fresh Chromium (a new profile,
 * as Lighthouse starts its own), and returns its report. Chromium runs at this process's priority;
 * Lighthouse's own process (it reads the page's trace and network events as they stream in, and
 * computes the report) at the lowest, like the local server: on a phone, nothing but the browser
 * runs the page, and on 2 cores the tool's work would otherwise lengthen the page's tasks it times.
 */
async function runLighthouse(url: string): Promise<Lhr> {
  const require = createRequire(import.meta.url);
  const cli = join(dirname(require.resolve('lighthouse/package.json')), 'cli/index.js');
  const chrome = await launchChrome({ chromePath: chromiumPath(), chromeFlags: CHROME_FLAGS });
  try {
    const args = [cli, url, `--port=${chrome.port}`, '--output=json', '--output-path=stdout', '--quiet', `--only-categories=${CATEGORIES.join(',')}`];
    return await new Promise((resolveRun, reject) => {
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      setTreePriority(child.pid!, LOWEST_PRIORITY);
      let out = '';
      let err = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      child.on('error', reject);
      child.on('close', (code) => {
        if (code !== 0) return reject(new Error(`lighthouse exited with ${code}: ${err.trim().split('\n').slice(-5).join('\n')}`));
        try {
          const lhr = JSON.parse(out) as Lhr;
          if (lhr.runtimeError) return reject(new Error(`lighthouse: ${lhr.runtimeError.message}`));
          resolveRun(lhr);
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
        }
      });
    });
  } finally {
    chrome.kill();
  }
}

const score = (lhr: Lhr, c: Category) => Math.round((lhr.categories[c].score ?? 0) * 100);

/** The page's own scripts (built files), measured gzipped from web/dist. */
function homeScripts(lhr: Lhr, origin: string): { files: string[]; gzipBytes: number; rawBytes: number; withSchemas: string[] } {
  const items = lhr.audits['network-requests']?.details?.items ?? [];
  const files = [
    ...new Set(
      items
        .filter((i) => i.resourceType === 'Script' && i.url.startsWith(origin))
        .map((i) => new URL(i.url).pathname)
        .filter((p) => p.startsWith('/assets/')),
    ),
  ];
  let gzipBytes = 0;
  let rawBytes = 0;
  const withSchemas: string[] = [];
  for (const file of files) {
    const body = readFileSync(join(webDist, file));
    rawBytes += body.length;
    gzipBytes += gzipSync(body, { level: 9 }).length;
    const map = join(webDist, `${file}.map`);
    if (existsSync(map) && (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources.some((s) => SCHEMA_SOURCE.test(s))) {
      withSchemas.push(file);
    }
  }
  return { files, gzipBytes, rawBytes, withSchemas };
}

export async function benchLighthouse(): Promise<{ lines: string[]; ok: boolean }> {
  if (!existsSync(join(webDist, 'index.html'))) throw new Error(`${webDist} has no build: run \`npm run build\` first`);
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-lighthouse-'));
  process.env.LOG_LEVEL = 'silent';
  // The local server stands in for a remote one: in a process of its own at the lowest CPU
  // priority (with DynamoDB Local), so what Lighthouse times on the page's thread is the page's.
  const server = await startServer({ dataDir, port: await freePort(), webDist });
  setTreePriority(server.child.pid!, LOWEST_PRIORITY);
  const app = { url: server.ready.url };
  try {
    const url = `${app.url}/`;
    // DynamoDB Local (a JVM) answers its first requests slowly while it warms up; AWS's does not.
    // The page's own requests (the maintenance check) are made a few times before measuring.
    for (let i = 0; i < 20; i++) {
      for (const path of ['/', routes.maintenanceMode.path]) await (await fetch(`${app.url}${path}`)).arrayBuffer();
    }
    const runs: Lhr[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await runLighthouse(url));
    if (process.env.LIGHTHOUSE_REPORT) writeFileSync(process.env.LIGHTHOUSE_REPORT, JSON.stringify(runs, null, 1));
    runs.sort((a, b) => score(a, 'performance') - score(b, 'performance'));
    const lhr = runs[Math.floor(runs.length / 2)]!;
    const scores = Object.fromEntries(CATEGORIES.map((c) => [c, score(lhr, c)])) as Record<Category, number>;
    const js = homeScripts(lhr, app.url);
    const jsKb = js.gzipBytes / 1024;
    const metric = (id: string) => lhr.audits[id]?.displayValue ?? '-';
    const check = (ok: boolean) => (ok ? 'OK' : 'OVER BUDGET');
    const ok =
      scores.performance >= BUDGET.performance &&
      scores.accessibility >= BUDGET.accessibility &&
      scores['best-practices'] >= BUDGET['best-practices'] &&
      jsKb <= BUDGET.jsKb &&
      js.withSchemas.length === 0;
    return {
      ok,
      lines: [
        `lighthouse (mobile) on / : median of ${RUNS} run(s) by performance (all: ${runs.map((r) => score(r, 'performance')).join(', ')})`,
        `  performance     ${String(scores.performance).padStart(3)}  (budget >= ${BUDGET.performance}) ${check(scores.performance >= BUDGET.performance)}`,
        `  accessibility   ${String(scores.accessibility).padStart(3)}  (budget = ${BUDGET.accessibility}) ${check(scores.accessibility >= BUDGET.accessibility)}`,
        `  best practices  ${String(scores['best-practices']).padStart(3)}  (budget >= ${BUDGET['best-practices']}) ${check(scores['best-practices'] >= BUDGET['best-practices'])}`,
        `  seo             ${String(scores.seo).padStart(3)}`,
        `  FCP ${metric('first-contentful-paint')}, LCP ${metric('largest-contentful-paint')}, TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')}, SI ${metric('speed-index')}`,
        `home route JS: ${js.files.length} files, ${(js.rawBytes / 1024).toFixed(1)} KB raw, ${jsKb.toFixed(1)} KB gzip (budget <= ${BUDGET.jsKb} KB) ${check(jsKb <= BUDGET.jsKb)}`,
        ...js.files.map((f) => `    ${f}${js.withSchemas.includes(f) ? '  (zod or shared schemas)' : ''}`),
        `zod and the shared schemas out of the first load: ${check(js.withSchemas.length === 0)}`,
      ],
    };
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { lines, ok } = await benchLighthouse();
  for (const l of lines) console.log(l);
  console.log(ok ? 'lighthouse budgets: OK' : 'lighthouse budgets: FAILED');
  process.exitCode = ok ? 0 : 1;
}
