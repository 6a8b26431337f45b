import { fuzzRoutes } from '../functions/test/route-fuzz.ts';
import { withLocalStore } from './store.ts';

/** 1,000 random requests across every route (the test runs 100): no 5xx, refusals change nothing. */
export async function benchProperty(): Promise<{ lines: string[]; ok: boolean }> {
  return withLocalStore(async () => {
    const started = performance.now();
    const { failure, runs } = await fuzzRoutes(1000);
    const seconds = (performance.now() - started) / 1000;
    return {
      ok: !failure,
      lines: [
        `route fuzz: ${runs} random requests over every route in ${seconds.toFixed(1)} s: ${failure ? `FAILED\n${failure}` : 'no 5xx, every refusal JSON with error, no stored data changed'}`,
      ],
    };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { lines, ok } = await benchProperty();
  for (const l of lines) console.log(l);
  process.exitCode = ok ? 0 : 1;
}
