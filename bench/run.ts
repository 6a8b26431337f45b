import { benchAutosave } from './autosave.ts';
import { benchCost } from './cost.ts';
import { benchHandlers } from './handlers.ts';
import { benchLighthouse } from './lighthouse.ts';
import { benchLive } from './live.ts';
import { benchLoad } from './load.ts';
import { benchProperty } from './property.ts';
import { benchRelay } from './relay.ts';
import { benchSegments } from './segments.ts';
import { benchTranscribe } from './transcribe.ts';

/**
 * `npm run bench`: every benchmark, one after another, printing its figures and whether it
 * met its budget. Needs a built web app (npm run build).
 * `npm run bench -- autosave load` runs only the named ones.
 */
const all = {
  handlers: benchHandlers,
  autosave: benchAutosave,
  property: benchProperty,
  segments: benchSegments,
  load: benchLoad,
  live: benchLive,
  cost: benchCost,
  relay: benchRelay,
  transcribe: benchTranscribe,
  lighthouse: benchLighthouse,
} satisfies Record<string, () => Promise<{ lines: string[]; ok: boolean }>>;

const wanted = process.argv.slice(2).filter((a) => a in all) as (keyof typeof all)[];
const selected = wanted.length ? wanted : (Object.keys(all) as (keyof typeof all)[]);
const summary: string[] = [];
for (const name of selected) {
  console.log(`\n== ${name} ==`);
  const started = performance.now();
  try {
    const { lines, ok } = await all[name]();
    for (const l of lines) console.log(l);
    summary.push(`${name.padEnd(11)} ${ok ? 'within budget' : 'OVER BUDGET'}  (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  } catch (err) {
    console.error(err);
    summary.push(`${name.padEnd(11)} FAILED TO RUN`);
  }
}
console.log('\n== summary ==');
for (const s of summary) console.log(s);
