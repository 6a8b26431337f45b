import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * The layers of functions/src, as the repo's ESLint config (eslint.config.js) enforces them:
 * handlers/ -> domain/, db/, lib/; db/ never speaks HTTP; domain/ is pure; local/ and ops/ use
 * anything and nothing deployed uses them. And no module reaches itself through its imports.
 */
const eslint = new ESLint({ cwd: resolve(import.meta.dirname, '../..') });

/** The layer messages ESLint gives `code` as if it were the file at `filePath` (from the repo root). */
async function crossings(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  const layerRules = ['import/no-restricted-paths', 'no-restricted-imports'];
  return result!.messages.filter((m) => layerRules.includes(m.ruleId ?? '')).map((m) => m.message);
}

describe('layers of functions/src', () => {
  it('nothing but the route table loads a handler', async () => {
    for (const layer of ['db', 'domain', 'lib']) {
      expect(await crossings(`functions/src/${layer}/probe.ts`, "import { handler } from '../handlers/auth/login.ts';"), layer).toEqual([
        expect.stringContaining('Only the route table loads handlers/'),
      ]);
    }
    const handlerImports = [
      "import { getUser } from '../../db/users.ts';",
      "import { effectivePlan } from '../../domain/plan.ts';",
      "import { notFound } from '../../lib/errors.ts';",
      "import { route } from '../../lib/http.ts';",
    ].join('\n');
    expect(await crossings('functions/src/handlers/auth/probe.ts', handlerImports)).toEqual([]);
  }, 30_000);

  it('db/ never speaks HTTP, and may use the environment and the domain', async () => {
    expect(await crossings('functions/src/db/probe.ts', "import { notFound } from '../lib/errors.ts';")).toEqual([
      expect.stringContaining('db/ never speaks HTTP'),
    ]);
    expect(await crossings('functions/src/db/probe.ts', "import type { Reply } from '../lib/http.ts';")).toHaveLength(1);
    expect(await crossings('functions/src/db/probe.ts', "import { pageRequest } from '../lib/paging.ts';")).toHaveLength(1);
    const allowed = "import { env } from '../lib/env.ts';\nimport { preview } from '../domain/text.ts';\nimport { keys } from './keys.ts';";
    expect(await crossings('functions/src/db/probe.ts', allowed)).toEqual([]);
  }, 30_000);

  it('domain/ imports neither db/, lib/ nor the AWS SDK', async () => {
    expect(await crossings('functions/src/domain/probe.ts', "import type { NewUser } from '../db/users.ts';")).toEqual([
      expect.stringContaining('domain/ holds pure rules'),
    ]);
    expect(await crossings('functions/src/domain/probe.ts', "import { env } from '../lib/env.ts';")).toHaveLength(1);
    expect(await crossings('functions/src/domain/probe.ts', "import { GetCommand } from '@aws-sdk/lib-dynamodb';")).toEqual([
      expect.stringContaining('no AWS SDK'),
    ]);
    expect(await crossings('functions/src/domain/probe.ts', "import { effectivePlan } from './plan.ts';\nimport { PREVIEW_CHARS } from '@app/shared/constants';")).toEqual([]);
  }, 30_000);

  it('local/ and ops/ import anything, and nothing deployed imports them (tests beside the code may)', async () => {
    for (const layer of ['db', 'domain', 'lib']) {
      expect(await crossings(`functions/src/${layer}/probe.ts`, "import { toEvent } from '../local/event.ts';"), layer).toEqual([
        expect.stringContaining('local/ and ops/ are never deployed'),
      ]);
    }
    expect(await crossings('functions/src/handlers/auth/probe.ts', "import { runOps } from '../../ops/ops.ts';")).toHaveLength(1);
    expect(await crossings('functions/src/lib/probe.test.ts', "import { toEvent } from '../local/event.ts';")).toEqual([]);
    const anything = [
      "import { handler } from '../handlers/auth/login.ts';",
      "import { getUser } from '../db/users.ts';",
      "import { toEvent } from '../local/event.ts';",
      "import { route } from '../lib/http.ts';",
    ].join('\n');
    expect(await crossings('functions/src/ops/probe.ts', anything)).toEqual([]);
    expect(await crossings('functions/src/local/probe.ts', anything)).toEqual([]);
  }, 30_000);
});

const SRC = resolve(import.meta.dirname, '../src');

/** Every module of functions/src (tests aside) -> the modules of functions/src it imports (`import type` included). */
function importGraph(): Map<string, string[]> {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(SRC, file), 'utf8'), true, true);
    const local = importedFiles.map((i) => i.fileName).filter((name) => name.startsWith('.'));
    graph.set(file, local.map((name) => join(dirname(file), name)).filter((target) => files.includes(target)));
  }
  return graph;
}

/** The import cycles of a graph, each as the path that closes it (depth-first). */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const visit = (node: string, path: string[]) => {
    const at = path.indexOf(node);
    if (at >= 0) return void cycles.push([...path.slice(at), node]);
    if (done.has(node)) return;
    for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
    done.add(node);
  };
  for (const node of graph.keys()) visit(node, []);
  return cycles;
}

describe('imports of functions/src', () => {
  it('form no cycle', () => {
    const graph = importGraph();
    expect(graph.get('db/users.ts')).toEqual(expect.arrayContaining(['db/client.ts', 'domain/users.ts']));
    expect(importCycles(graph)).toEqual([]);
  });

  it('a cycle, however long, is found', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
    ]);
    expect(importCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
    expect(importCycles(new Map([['a.ts', ['b.ts']], ['b.ts', []]]))).toEqual([]);
  });
});
