import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

/**
 * The browser journeys that prove the Lambda bundles: `npm run test:artifacts` runs them on the
 * bundles `cdk synth` made (LOCAL_HANDLERS=bundles), so `npm test` leaves them out of its pass on
 * the sources (E2E_ONCE=1) and each journey runs once.
 */
const BUNDLE_JOURNEYS = ['artifacts', 'auth', 'billing', 'saved'].map((name) => `${name}.e2e.ts`);
const onBundles = process.env.LOCAL_HANDLERS === 'bundles';

/** One vitest run for the whole repo: a project per workspace. */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'shared',
          root: 'shared',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'functions',
          root: 'functions',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/global-setup.ts'],
          setupFiles: ['test/setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'infra',
          root: 'infra',
          include: ['test/**/*.test.ts'],
          environment: 'node',
          // One worker runs the files in turn and shares their modules, so each stack the files
          // test (test/template.ts) is synthesized once per run, not once per file.
          isolate: false,
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          root: 'e2e',
          include: onBundles ? BUNDLE_JOURNEYS : ['**/*.e2e.ts'],
          exclude: process.env.E2E_ONCE === '1' && !onBundles ? BUNDLE_JOURNEYS : [],
          environment: 'node',
          globalSetup: ['global-setup.ts'],
          fileParallelism: false,
          // Browser journeys wait for real work (on the bundles: scrypt at production cost; DynamoDB Local).
          expect: { poll: { timeout: 15_000, interval: 50 } },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      ...(existsSync('web/vite.config.ts') ? ['./web/vite.config.ts'] : []),
    ],
  },
});
