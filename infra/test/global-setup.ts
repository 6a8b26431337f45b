import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

/** One temporary folder for the run's synthesized apps and sites (template.ts's tempDir), removed after it. */
export function setup(project: TestProject) {
  const root = mkdtempSync(join(tmpdir(), 'infra-tests-'));
  project.provide('infraTempRoot', root);
  return () => rmSync(root, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    infraTempRoot: string;
  }
}
