import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { RELAY_TABLE_ACTIONS } from '@app/shared/relay';
import { routes } from '@app/shared/routes';
import { grantProblems, mergeEvidence, type Evidence } from './grant-evidence.ts';

/**
 * After the functions tests: merges every test file's evidence from `dir` and compares it with the
 * route table's grants. Any difference sets a failing exit code and throws with one line per
 * difference. Only a run of every functions test file, none skipped, proves the grants; a partial
 * run (a file or name filter) says so and checks nothing, except in CI (`CI=true`), where it fails.
 */
export async function checkRecordedGrants(project: TestProject, dir: string): Promise<void> {
  const evidence = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .reduce<Evidence>((total, f) => mergeEvidence(total, JSON.parse(readFileSync(join(dir, f), 'utf8')) as Evidence), {});
  rmSync(dir, { recursive: true, force: true });

  const { testFiles } = await project.globTestFiles();
  const modules = project.vitest.state.getTestModules().filter((m) => m.project.name === project.name);
  const ran = new Set(modules.map((m) => m.moduleId));
  const notRun = testFiles.filter((f) => !ran.has(f));
  const skipped = modules.some((m) => [...m.children.allTests()].some((t) => t.result().state === 'skipped'));
  const partial = partialRun({ notRun: notRun.length, skipped, ci: process.env.CI === 'true' });
  if (partial === 'fail') {
    process.exitCode = 1;
    throw new Error(`[${project.name}] IAM grant check: in CI every ${project.name} test file must run, none skipped (${notRun.length} not run${skipped ? ', some skipped' : ''}).`);
  }
  if (partial === 'skip') {
    console.log(`[${project.name}] IAM grant check not run: only part of the ${project.name} tests ran.`);
    return;
  }

  // The caption relay is no route: its grant is RELAY_TABLE_ACTIONS (caption-destinations.test.ts records it as `captionRelay`).
  const problems = grantProblems({ ...routes, captionRelay: { table: RELAY_TABLE_ACTIONS } }, evidence);
  if (problems.length === 0) return;
  process.exitCode = 1;
  throw new Error(
    `IAM grants in shared/src/routes.ts differ from the DynamoDB actions and indexes the handlers used in the tests:\n  ${problems.join('\n  ')}`,
  );
}

/** What a run proves: every file ran, none skipped ('check'); else nothing ('skip'), which fails in CI ('fail'). */
export function partialRun({ notRun, skipped, ci }: { notRun: number; skipped: boolean; ci: boolean }): 'check' | 'skip' | 'fail' {
  if (notRun === 0 && !skipped) return 'check';
  return ci ? 'fail' : 'skip';
}

