import type { Plugin, Rollup } from 'vite';

/**
 * V8's explicit compile hint, as a file's first line: compile every function in the file along
 * with the file, on a background thread while it downloads, instead of each one on the main
 * thread at its first call. For the files whose code runs as the page starts, that work would
 * otherwise fall in the start-up's longest tasks (evaluating the modules, React's first render).
 */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/** Prepends the hint to `chunk` and moves its source map's lines down one, so they still point at the right code. */
export function addCompileHint(chunk: Pick<Rollup.OutputChunk, 'code' | 'map'>, mapAsset?: Rollup.OutputAsset): void {
  if (chunk.code.startsWith(COMPILE_HINT)) return;
  chunk.code = `${COMPILE_HINT}\n${chunk.code}`;
  if (chunk.map) chunk.map.mappings = `;${chunk.map.mappings}`;
  if (mapAsset) {
    const map = JSON.parse(String(mapAsset.source)) as { mappings: string };
    map.mappings = `;${map.mappings}`;
    mapAsset.source = JSON.stringify(map);
  }
}

/**
 * Adds the compile hint to the chunks `pick` names (file names) from the finished bundle: those
 * whose functions mostly run as the page starts. Each file's source map moves with it.
 */
export function compileHints(pick: (chunks: Rollup.OutputChunk[]) => Iterable<string>): Plugin {
  return {
    name: 'compile-hints',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
        for (const fileName of pick(chunks)) {
          const chunk = bundle[fileName];
          if (chunk?.type !== 'chunk') throw new Error(`compile-hints: ${fileName} is not a chunk of the build`);
          const map = bundle[`${fileName}.map`];
          addCompileHint(chunk, map?.type === 'asset' ? map : undefined);
        }
      },
    },
  };
}
