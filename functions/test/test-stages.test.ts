import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The test stages (package.json) name the vitest projects they run: every project runs in exactly
 * one of test:unit's runs or in the journeys' run, so a project added under a new name cannot drop
 * out of `npm test` unnoticed.
 */
const root = resolve(import.meta.dirname, '../..');
const scripts = (JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** The `--project` filters of each `vitest run` in a script, as vitest reads them ('*' matches anything). */
const runsOf = (script: string): RegExp[][] =>
  script
    .split(/vitest run/)
    .slice(1)
    .map((run) => [...run.split(/[;&]/)[0]!.matchAll(/--project '?([^'\s]+)'?/g)].map(([, p]) => new RegExp(`^${p!.replace(/\*/g, '.*')}$`)));

/** The projects vitest.config.ts declares (each `name: '…'` in it). */
const projectNames = [...readFileSync(resolve(root, 'vitest.config.ts'), 'utf8').matchAll(/\bname: '([^']+)'/g)].map(([, name]) => name!);

describe('test stages', () => {
  it('run every vitest project once: in one of test:unit runs or in the journeys', () => {
    const runs = [...runsOf(scripts['test:unit']!), ...runsOf(scripts['test:e2e']!)];
    expect(runs.length).toBe(3);
    expect(projectNames.length).toBeGreaterThan(5);
    for (const name of projectNames) {
      expect(runs.filter((filters) => filters.some((f) => f.test(name))).length, name).toBe(1);
    }
    // The journeys on the bundles run the same projects as test:e2e.
    expect(runsOf(scripts['test:e2e:bundles']!).map(String)).toEqual(runsOf(scripts['test:e2e']!).map(String));
  });
});
