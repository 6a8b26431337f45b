import type { Plugin } from 'vite';

/** One replacement in a library's modules. */
export interface Replacement {
  find: RegExp;
  replace: string;
}

/**
 * A production edit of a library that ships one build for every use. Every replacement must
 * match at least once over the build, in a module whose id matches `id`: one that matches
 * nothing (the library changed) fails the build, so the edit is brought up to date instead of
 * silently making the first load bigger again.
 */
export interface LibraryEdit {
  /** What the edit does, named in the build error. */
  name: string;
  /** The modules it applies to. */
  id: RegExp;
  replacements: readonly Replacement[];
}

/**
 * The edits of the app's build; each only removes code the app never runs, so the first load
 * carries less.
 * - react-router: its production build (ENABLE_DEV_WARNINGS off) without its development warnings;
 *   and its components built by `forwardRef`/`createContext`/`memo` calls marked pure, without
 *   their `displayName` (only React DevTools reads it), so the unused ones (Form, Await,
 *   ScrollRestoration...) are left out.
 * - i18next: its warnings and logs print only with its `debug` option, which the app never sets;
 *   react-i18next's warnings go through them.
 */
export const LIBRARY_EDITS: readonly LibraryEdit[] = [
  {
    name: 'react-router without development warnings and unused components',
    id: /\/node_modules\/react-router\/dist\//,
    replacements: [
      { find: /^var ENABLE_DEV_WARNINGS = true;$/m, replace: 'var ENABLE_DEV_WARNINGS = false;' },
      { find: /^function (warning|warningOnce|warnOnce)\(/gm, replace: '/* @__NO_SIDE_EFFECTS__ */ function $1(' },
      { find: /= (React\d*)\.(forwardRef|createContext|memo)\(/g, replace: '= /* @__PURE__ */ $1.$2(' },
      { find: /^\w+\.displayName = [^;\n]+;$/gm, replace: '' },
    ],
  },
  {
    name: "i18next's debug-only logging",
    id: /\/node_modules\/i18next\/dist\//,
    replacements: [{ find: /\bthis\.logger\.(warn|log)\(/g, replace: '/* @__PURE__ */ this.logger.$1(' }],
  },
  {
    name: "react-i18next's warnings",
    id: /\/node_modules\/react-i18next\/dist\/es\/utils\.js$/,
    replacements: [{ find: /^export const (warn|warnOnce) = /gm, replace: 'export const $1 = /* @__NO_SIDE_EFFECTS__ */ ' }],
  },
];

/** How often `find` matches in `code`. */
const countMatches = (find: RegExp, code: string) => code.match(new RegExp(find.source, find.flags.includes('g') ? find.flags : `${find.flags}g`))?.length ?? 0;

/**
 * Applies `edits` to the modules of a build (each matching edit, in order) and counts every
 * replacement's matches over the build; at its end, a replacement that matched nothing fails it.
 */
export function libraryEdits(edits: readonly LibraryEdit[] = LIBRARY_EDITS): Plugin {
  let matches = new Map<Replacement, number>();
  return {
    name: 'library-edits',
    apply: 'build',
    buildStart() {
      matches = new Map(edits.flatMap((edit) => edit.replacements.map((r) => [r, 0] as const)));
    },
    transform(code, id) {
      const applying = edits.filter((edit) => edit.id.test(id));
      if (applying.length === 0) return undefined;
      let edited = code;
      for (const r of applying.flatMap((edit) => edit.replacements)) {
        matches.set(r, (matches.get(r) ?? 0) + countMatches(r.find, edited));
        edited = edited.replace(r.find, r.replace);
      }
      // Every line stays where it was, so the module's source map still points at the right lines.
      return { code: edited, map: null };
    },
    buildEnd(error) {
      if (error) return;
      const stale = edits.flatMap((edit) => edit.replacements.filter((r) => !matches.get(r)).map((r) => `${edit.name}: ${r.find} (in ${edit.id})`));
      if (stale.length) {
        throw new Error(`library-edits: these replacements matched nothing in the build; update them to the library's code:\n  ${stale.join('\n  ')}`);
      }
    },
  };
}
