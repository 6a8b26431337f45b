import type { Plugin, Rollup } from 'vite';
import { describe, expect, it } from 'vitest';
import { addCompileHint, COMPILE_HINT, compileHints } from './compile-hints.ts';

const chunk = (fileName: string, code: string, mappings: string) =>
  ({ type: 'chunk', fileName, code, map: { mappings } }) as unknown as Rollup.OutputChunk;
const mapAsset = (fileName: string, mappings: string) =>
  ({ type: 'asset', fileName, source: JSON.stringify({ version: 3, mappings }) }) as unknown as Rollup.OutputAsset;

/** Runs the plugin's generateBundle over `bundle`. */
function generate(plugin: Plugin, bundle: Record<string, Rollup.OutputChunk | Rollup.OutputAsset>) {
  const hook = plugin.generateBundle as { handler: (...args: unknown[]) => void };
  hook.handler.call({}, {}, bundle, false);
}

describe('compile hints', () => {
  it('puts the hint on the first line and moves the source map down one line, once', () => {
    const c = chunk('a.js', 'var a=1;\nvar b=2;', 'AAAA;AACA');
    addCompileHint(c);
    addCompileHint(c);
    expect(c.code).toBe(`${COMPILE_HINT}\nvar a=1;\nvar b=2;`);
    expect(c.map?.mappings).toBe(';AAAA;AACA');
  });

  it('marks only the files picked, with their emitted source maps', () => {
    const bundle = {
      'assets/shell.js': chunk('assets/shell.js', 'start()', 'AAAA'),
      'assets/shell.js.map': mapAsset('assets/shell.js.map', 'AAAA'),
      'assets/lazy.js': chunk('assets/lazy.js', 'later()', 'AAAA'),
    };
    generate(
      compileHints((chunks) => chunks.filter((c) => c.fileName.includes('shell')).map((c) => c.fileName)),
      bundle,
    );
    expect(bundle['assets/shell.js'].code.split('\n')[0]).toBe(COMPILE_HINT);
    expect(JSON.parse(String(bundle['assets/shell.js.map'].source))).toMatchObject({ mappings: ';AAAA' });
    expect(bundle['assets/lazy.js'].code).toBe('later()');
  });

  it('fails the build when a picked file is not in it', () => {
    expect(() => generate(compileHints(() => ['assets/gone.js']), {})).toThrow(/gone\.js is not a chunk/);
  });
});
