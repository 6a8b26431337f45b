import { spawnSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { routes, type RouteDef } from '@app/shared/routes';
import { bundleHandlers, HANDLER_FILE } from '../infra/lib/bundling.ts';

/**
 * Every route's handler bundled as deployed (infra/lib/bundling.ts: the esbuild run `cdk synth`
 * makes), then imported cold in a fresh Node process five times: bundle size and median
 * cold-import time. Budget < 100 ms.
 */
export async function benchHandlers(): Promise<{ lines: string[]; ok: boolean }> {
  const handlers = [...new Set((Object.values(routes) as RouteDef[]).map((r) => r.handler))];
  const bundles = bundleHandlers(handlers);
  const rows: string[] = [];
  let worstMs = 0;
  for (const handler of handlers) {
    const outfile = join(bundles, handler, HANDLER_FILE);
    const code = readFileSync(outfile);
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = spawnSync(
        process.execPath,
        ['--input-type=module', '-e', `const t=performance.now();const m=await import(${JSON.stringify(outfile)});if(typeof m.handler!=='function')process.exit(2);console.log(performance.now()-t)`],
        { encoding: 'utf8', env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' } },
      );
      if (r.status !== 0) throw new Error(`${handler}: import failed: ${r.stderr}`);
      times.push(Number(r.stdout.trim()));
    }
    times.sort((a, b) => a - b);
    const median = times[2]!;
    worstMs = Math.max(worstMs, median);
    rows.push(
      `${handler.padEnd(34)} ${(code.length / 1024).toFixed(1).padStart(7)} KB  ${(gzipSync(code).length / 1024).toFixed(1).padStart(6)} KB gz  ${median.toFixed(1).padStart(6)} ms`,
    );
  }
  return {
    ok: worstMs < 100,
    lines: [
      'handler                              minified     gzip   cold import (median of 5)',
      ...rows,
      `slowest cold import: ${worstMs.toFixed(1)} ms (budget < 100 ms)`,
    ],
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { lines, ok } = await benchHandlers();
  for (const l of lines) console.log(l);
  console.log(ok ? 'handler budgets: OK' : 'handler budgets: OVER BUDGET');
}
