import { afterEach, beforeAll, expect } from 'vitest';
import { cspViolations, openContexts } from './browser.ts';

/**
 * Run before each journey file (the e2e projects' setupFiles), so its hooks are registered for
 * every file even when a worker's files share the helper modules (isolate: false).
 */

/** A file starts with none of the profiles of the worker's previous file (closed with its browser). */
beforeAll(() => {
  openContexts.clear();
  cspViolations.length = 0;
});

/**
 * Every test fails on a Content-Security-Policy violation in any of its pages: the local server
 * sends the production policy, so what the browser refuses here it refuses in production.
 */
afterEach(() => {
  expect(cspViolations.splice(0), 'Content-Security-Policy violations').toEqual([]);
});

/**
 * When a journey fails, what each page it left open showed: its address, the last failed
 * requests and console errors, and its accessibility tree, so that a failure seen once in a
 * run can be understood from the run's output. (Registered after the check above: vitest runs
 * afterEach hooks in reverse order, so this report comes first.)
 */
afterEach(async ({ task }) => {
  if (task.result?.state !== 'fail') return;
  for (const [context, trouble] of openContexts) {
    for (const page of context.pages()) {
      const tree = await page
        .locator('body')
        .ariaSnapshot({ timeout: 2000 })
        .catch((e: Error) => `(no snapshot: ${e.message.split('\n')[0]})`);
      console.error(`--- page left open by "${task.name}": ${page.url()}\n${trouble.join('\n') || '(no failed requests or console errors)'}\n${tree.slice(0, 4000)}`);
    }
  }
});
