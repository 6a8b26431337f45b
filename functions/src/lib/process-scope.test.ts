import { build } from 'esbuild';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { processScope } from './process-scope.ts';

const lib = import.meta.dirname;
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

/** `source` bundled on its own, as each route's function is (every module it imports copied in), then loaded. */
async function bundle<T>(name: string, source: string): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'scope-bundle-'));
  dirs.push(dir);
  const { outputFiles } = await build({
    stdin: { contents: source, resolveDir: lib, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    alias: { '@app/shared': resolve(lib, '../../../shared/src') },
  });
  const file = join(dir, `${name}.mjs`);
  await writeFile(file, outputFiles[0]!.text);
  return (await import(/* @vite-ignore */ pathToFileURL(file).href)) as T;
}

describe('processScope', () => {
  it('gives the one scope of its name to every caller, and another scope to another name', () => {
    expect(processScope('test-a')).toBe(processScope('test-a'));
    expect(processScope('test-a')).not.toBe(processScope('test-b'));
  });

  it('is shared by the copies of a module that two bundles loaded in one process carry (the local server runs every route bundle in one)', async () => {
    const routeA = await bundle<typeof import('./secrets.ts') & typeof import('./log.ts')>(
      'route-a',
      "export { withRouteSecrets } from './secrets.ts'; export { withRequestIds } from './log.ts';",
    );
    const routeB = await bundle<typeof import('./secrets.ts') & typeof import('./log.ts')>('route-b', "export { secret } from './secrets.ts'; export { log } from './log.ts';");
    // A request that route A's copy scoped: route B's copy sees its route and its ids.
    await expect(routeA.withRouteSecrets('routeA', [], () => routeB.secret('tokenKey'))).rejects.toThrow(/route routeA read the secret tokenKey/);
    const lines = vi.spyOn(console, 'log').mockImplementation(() => {});
    vi.stubEnv('LOG_LEVEL', 'info');
    try {
      routeA.withRequestIds({ correlation_id: 'request-1' }, () => routeB.log.info('from route B'));
      expect(lines.mock.calls.map(([line]) => JSON.parse(String(line)) as unknown)).toContainEqual(
        expect.objectContaining({ message: 'from route B', correlation_id: 'request-1' }),
      );
    } finally {
      lines.mockRestore();
      vi.unstubAllEnvs();
    }
  });
});
