import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

/** The survey form the journeys' build embeds (the CSP then allows its origin as a frame source). */
export const E2E_SURVEY_URL = 'https://example.com/survey';

/**
 * The SPA the journeys load: E2E_WEB_DIST as given (a build made elsewhere), or a fresh production
 * build (a few seconds) with the survey configured, into node_modules/.cache/e2e-web. The build runs
 * in its own process: inside vitest (NODE_ENV=test) Vite would make a development build, without
 * the service worker and with React's development code.
 */
export async function webDist(root: string): Promise<string> {
  if (process.env.E2E_WEB_DIST) return resolve(root, process.env.E2E_WEB_DIST);
  const outDir = join(root, 'node_modules/.cache/e2e-web');
  const vite = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin/vite.js');
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST')));
  await promisify(execFile)(process.execPath, [vite, 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'], {
    cwd: join(root, 'web'),
    env: { ...env, NODE_ENV: 'production', VITE_SURVEY_URL: E2E_SURVEY_URL },
  });
  return outDir;
}
