import type { Plugin } from 'vite';
import { describe, expect, it } from 'vitest';
import { LIBRARY_EDITS, libraryEdits, type LibraryEdit } from './library-edits.ts';

/** A hook of the plugin as a plain function (the build calls it with a context these hooks do not use). */
function hook<K extends 'buildStart' | 'transform' | 'buildEnd'>(plugin: Plugin, name: K) {
  const h = plugin[name] as unknown;
  const fn = (typeof h === 'function' ? h : (h as { handler: unknown }).handler) as (...args: unknown[]) => unknown;
  return (...args: unknown[]) => fn.call({}, ...args);
}

/** Runs one build through the plugin: its start, these modules (id -> code), its end. */
function build(edits: readonly LibraryEdit[], modules: Record<string, string>) {
  const plugin = libraryEdits(edits);
  hook(plugin, 'buildStart')({});
  const out: Record<string, string | undefined> = {};
  for (const [id, code] of Object.entries(modules)) {
    out[id] = (hook(plugin, 'transform')(code, id) as { code: string } | undefined)?.code;
  }
  return { out, end: () => hook(plugin, 'buildEnd')() };
}

const LIB = '/app/node_modules/some-lib/dist/index.js';
const edit: LibraryEdit = {
  name: 'some-lib without its warnings',
  id: /\/node_modules\/some-lib\/dist\//,
  replacements: [
    { find: /^var DEV = true;$/m, replace: 'var DEV = false;' },
    { find: /\bwarn\(/g, replace: '/* @__PURE__ */ warn(' },
  ],
};

describe('libraryEdits', () => {
  it('edits the modules whose id matches, line for line, and leaves the others alone', () => {
    const { out, end } = build([edit], {
      [LIB]: 'var DEV = true;\nwarn(1);\nwarn(2);',
      '/app/src/main.ts': 'var DEV = true;',
    });
    expect(out[LIB]).toBe('var DEV = false;\n/* @__PURE__ */ warn(1);\n/* @__PURE__ */ warn(2);');
    expect(out['/app/src/main.ts']).toBeUndefined();
    expect(end).not.toThrow();
  });

  it('counts a replacement over the whole build: one module matching is enough', () => {
    const { end } = build([edit], {
      [LIB]: 'var DEV = true;',
      '/app/node_modules/some-lib/dist/other.js': 'warn(1);',
    });
    expect(end).not.toThrow();
  });

  it('fails the build when a replacement matched nothing, naming it', () => {
    const { out, end } = build([edit], { [LIB]: 'const DEV = true;\nwarn(1);' });
    expect(out[LIB]).toBe('const DEV = true;\n/* @__PURE__ */ warn(1);');
    expect(end).toThrow(/some-lib without its warnings: \/\^var DEV = true;\$\/m/);
  });

  it('fails the build when no module matches the edit', () => {
    expect(build([edit], { '/app/src/main.ts': 'warn(1);' }).end).toThrow(/matched nothing/);
  });

  it('starts counting again with each build, and leaves a failed build its own error', () => {
    const plugin = libraryEdits([edit]);
    hook(plugin, 'buildStart')({});
    hook(plugin, 'transform')('var DEV = true;\nwarn(1);', LIB);
    expect(() => hook(plugin, 'buildEnd')()).not.toThrow();
    hook(plugin, 'buildStart')({});
    expect(() => hook(plugin, 'buildEnd')()).toThrow(/matched nothing/);
    expect(() => hook(plugin, 'buildEnd')(new Error('syntax error'))).not.toThrow();
  });

  it("declares, for each of the app's edits, what it changes", () => {
    expect(LIBRARY_EDITS.length).toBeGreaterThan(0);
    for (const e of LIBRARY_EDITS) expect(e.replacements.length, e.name).toBeGreaterThan(0);
  });
});
