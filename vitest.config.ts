import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const onBundles = process.env.LOCAL_HANDLERS === 'bundles';
/** Checks of what only the synthesized bundles have (the production password cost): run with LOCAL_HANDLERS=bundles. */
const BUNDLE_ONLY = ['bundles.e2e.ts'];
/** Journeys that change what every page of the site sees (maintenance closes it): they run alone, after the others. */
const ALONE_JOURNEYS = ['maintenance.e2e.ts'];

/** The browser journeys' settings: one product and one Chromium for the run (global-setup.ts), a file per worker. */
const journeys = {
  root: 'e2e',
  environment: 'node',
  globalSetup: ['global-setup.ts'],
  // A worker's files share the helper modules (Playwright's client loads once a worker, not once a
  // file); setup.ts registers the per-file hooks for each of them.
  isolate: false,
  setupFiles: ['setup.ts'],
  // Browser journeys wait for real work (on the bundles: scrypt at production cost; DynamoDB Local).
  // Each poll is a round trip through Playwright's server into the page: every 100 ms, not 50, the
  // journeys took 146 s instead of 154 s on 2 cores, and about 13 CPU-s less of Chromium's.
  expect: { poll: { timeout: 15_000, interval: 100 } },
  // The synthesized bundles load as Lambda loads them, by Node itself: transformed by vitest's
  // module runner, each megabyte bundle (and its source map) would cost seconds of CPU.
  server: { deps: { external: [/\/cdk\.out\//] } },
  testTimeout: 60_000,
  hookTimeout: 60_000,
} as const;

/**
 * The web's tests run in VM contexts (vmForks): each file gets a fresh jsdom, and jsdom and the
 * libraries load once per worker instead of once per file (about a third of the time). A worker's
 * files share the libraries and, in this vitest version, the modules too: a test leaves no state
 * behind (a mocked library is restored, a timer or a listener ends with its test). These files
 * run in a process of their own instead: they load Node-only
 * tooling (Tailwind's scanner, ESLint), mock a module's loading and check the error it throws
 * (an Error of another realm in a VM context), or drive pointer events that a VM context's shared
 * libraries carried over from other files.
 */
const WEB_OWN_PROCESS = [
  'src/components/ui/cn.test.ts',
  'src/layers.test.ts',
  'src/app/session-sync.test.tsx',
  'src/features/transcribe/components/transcription-card.offline.test.tsx',
  'src/components/ui/confirm-dialog.test.tsx',
];

/** Static checks of functions/src that run ESLint, which needs a process of its own. */
const FUNCTIONS_OWN_PROCESS = ['test/layers.test.ts'];

/** One vitest run for the whole repo: a project per workspace, plus the own-process ones. */
export default defineConfig({
  test: {
    // A worker per core (vitest's default leaves one core to itself: on 2 cores, one file at a time).
    maxWorkers: availableParallelism(),
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
          exclude: ['**/node_modules/**', ...FUNCTIONS_OWN_PROCESS],
          environment: 'node',
          globalSetup: ['test/global-setup.ts'],
          setupFiles: ['test/setup.ts'],
          // VM contexts: the AWS SDK and the other libraries load once per worker, not once per file.
          pool: 'vmForks',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      { test: { name: 'functions-own-process', root: 'functions', include: FUNCTIONS_OWN_PROCESS, environment: 'node', pool: 'forks' } },
      {
        test: {
          name: 'infra',
          root: 'infra',
          include: ['test/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/global-setup.ts'],
          // One worker runs the files in turn and shares their modules, so each stack the files
          // test (test/template.ts) is synthesized once per run, not once per file.
          isolate: false,
          fileParallelism: false,
          // One worker where the other projects have one per core: in one vitest run it is a group of
          // its own, after them, with a core idle; test:unit runs it in a vitest run of its own beside them.
          sequence: { groupOrder: 1 },
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          ...journeys,
          name: 'e2e',
          include: ['**/*.e2e.ts'],
          exclude: [...ALONE_JOURNEYS, ...(onBundles ? [] : BUNDLE_ONLY)],
          // A file per core and one more, each in browser profiles and accounts of its own: while
          // one file waits (on a poll, a timer, the server), the others keep Chromium busy (on 2
          // cores, 3 files took 154 s where 2 took 169 s, for 5% more CPU).
          sequence: { groupOrder: 2 },
          maxWorkers: availableParallelism() + 1,
        },
      },
      {
        test: {
          ...journeys,
          name: 'e2e-alone',
          include: ALONE_JOURNEYS,
          fileParallelism: false,
          sequence: { groupOrder: 3 },
        },
      },
      {
        extends: './web/vite.config.ts',
        test: {
          name: 'web',
          include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
          exclude: ['**/node_modules/**', ...WEB_OWN_PROCESS],
          pool: 'vmForks',
        },
      },
      { extends: './web/vite.config.ts', test: { name: 'web-own-process', include: WEB_OWN_PROCESS, pool: 'forks' } },
    ],
  },
});
