import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

/** The survey form the journeys' build embeds (the CSP then allows its origin as a frame source). */
export const E2E_SURVEY_URL = 'https://example.com/survey';

/**
 * The measurement the journeys' build is configured with, as a deploy with analytics and session
 * recording is: the ids, and the origins their tags load from and send to (the CSP allows them).
 * No journey reaches these hosts: every browser context answers them (browser.ts), with stand-ins
 * of the tags where a journey looks at what they collect (trackers.e2e.ts).
 */
export const E2E_ANALYTICS_ID = 'G-E2ETEST001';
export const E2E_RECORDING_ID = 'e2etest001';
export const E2E_ANALYTICS_ORIGINS = ['https://www.googletagmanager.com', 'https://www.google-analytics.com', 'https://www.clarity.ms'];

/**
 * The SPA the journeys load: E2E_WEB_DIST as given (a build made elsewhere), or a fresh production
 * build (a few seconds) with the survey and measurement configured, into node_modules/.cache/e2e-web. The build runs
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
    env: { ...env, NODE_ENV: 'production', VITE_SURVEY_URL: E2E_SURVEY_URL, VITE_ANALYTICS_ID: E2E_ANALYTICS_ID, VITE_SESSION_RECORDING_ID: E2E_RECORDING_ID },
  });
  return outDir;
}
