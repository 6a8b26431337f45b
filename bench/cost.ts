import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserServer } from 'playwright-core';
import { routeNamed } from '@app/shared/routes';
import { freePort } from '../functions/src/local/dynamo.ts';
import { launchChromiumServer } from '../e2e/chromium.ts';
import { PRICES, servingCost } from './prices.ts';
import { proUser } from './pro-user.ts';
import { setTreePriority, startBenchServer } from './transcribe.ts';

/**
 * What one hour of transcription by a signed-in user asks of AWS, counted from the page itself:
 * the built app in Chromium, a signed-in user recording with the scripted recognizer, which says
 * a final result of 8 words every 3 s (160 words a minute) for an hour of the page's own time
 * (Playwright's clock: the page's timers run an hour in a minute or so; the requests are real,
 * answered by the local server while the page's clock waits for them). Counts every API request the page sends, by route, and the
 * bytes of the saves, and prices them (docs/cost.md): API Gateway, Lambda (each call billed at
 * the function's 512 MB for COST_CALL_MS, a figure, not this machine's time), AWS WAF at both web
 * ACLs, CloudFront, and DynamoDB's write units from what each save writes. Not shared live.
 */
const HOUR_MS = 3_600_000;
const FINAL_EVERY_MS = 3_000;
const WORDS_PER_FINAL = 8;
/** Billed time of one API call on Lambda (a warm 512 MB function doing a few DynamoDB calls). */
export const COST_CALL_MS = 50;
const VOCABULARY = 'então vamos falar sobre a transcrição automática de reuniões longas com vários participantes the lecture continues with models and evaluation'.split(' ');

export async function benchCost(): Promise<{ lines: string[]; ok: boolean }> {
  const webDist = resolve(process.env.BENCH_WEB_DIST ?? process.env.E2E_WEB_DIST ?? resolve(import.meta.dirname, '../web/dist'));
  if (!existsSync(join(webDist, 'index.html'))) throw new Error(`No built app in ${webDist}: run \`npm run build -w web\` first.`);
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-cost-'));
  process.env.LOG_LEVEL ??= 'silent';
  let server: Awaited<ReturnType<typeof startBenchServer>> | undefined;
  let chromiumServer: BrowserServer | undefined;
  let browser: Browser | undefined;
  try {
    // The page's hour passes in a few real minutes: the save route's per-minute limit (real time)
    // would refuse saves that a real hour spreads over sixty minutes. The bench counts requests, so
    // the server takes them all; the page's own cadence decides how many it sends.
    process.env.AUTOSAVE_SAVES_PER_MINUTE = String(1_000_000);
    server = await startBenchServer({ dataDir, port: await freePort(), webDist });
    const { url } = server.ready;
    setTreePriority(server.child.pid!, 19);
    chromiumServer = await launchChromiumServer();
    browser = await chromium.connect(chromiumServer.wsEndpoint());
    const { context } = await proUser(browser, url, 'Cost', { width: 1280, height: 720 });
    await context.clock.install();
    const page = await context.newPage();
    const requests = new Map<string, { count: number; bytes: number }>();
    let counting = false;
    // Requests sent and not yet answered: the page's clock waits for them, as a real hour would.
    let inFlight = 0;
    page.on('request', () => inFlight++);
    page.on('requestfinished', () => inFlight--);
    page.on('requestfailed', () => inFlight--);
    page.on('request', (r) => {
      if (!counting) return;
      const { pathname } = new URL(r.url());
      if (!pathname.startsWith('/api/') && !pathname.startsWith('/stripe/') && pathname !== '/contact') return;
      const name = routeNamed(r.method(), pathname) ?? `${r.method()} ${pathname}`;
      const row = requests.get(name) ?? { count: 0, bytes: 0 };
      row.count++;
      row.bytes += r.postDataBuffer()?.length ?? 0;
      requests.set(name, row);
    });
    await page.goto('/');
    counting = true;
    await page.getByRole('region', { name: 'Live transcription' }).getByRole('button', { name: 'Start', exact: true }).click();
    await page.waitForFunction(() => window.__speech.active !== null, undefined, { polling: 50 });
    let words = 0;
    let chars = 0;
    for (let at = 0; at < HOUR_MS; at += FINAL_EVERY_MS) {
      const text = Array.from({ length: WORDS_PER_FINAL }, (_, k) => VOCABULARY[(words + k * 7) % VOCABULARY.length]).join(' ') + ` n${words}`;
      words += WORDS_PER_FINAL + 1;
      chars += text.length + 1;
      await page.evaluate((t) => window.__speech.final(t), text);
      await page.clock.runFor(FINAL_EVERY_MS);
      // The page's time stands still while its requests are answered (in real time, on the local
      // server): a real hour's answers come in well under a second, not after minutes of page time.
      for (let waited = 0; inFlight > 0 && waited < 10_000; waited += 5) await new Promise((r) => setTimeout(r, 5));
    }
    counting = false;
    const saves = requests.get('autosaveSave') ?? { count: 0, bytes: 0 };
    const total = [...requests.values()].reduce((a, r) => a + r.count, 0);
    const p = PRICES;
    // A save: the user's session read (auth), its rate window (1 write unit), the chunks (a unit a KB of text and segments, the body's size), the metadata (1).
    const writeUnits = saves.count * 2 + Math.ceil(saves.bytes / 1024) + (total - saves.count);
    const cost = {
      ...servingCost({ edgeRequests: total, originCalls: total, lambdaGbSeconds: total * (COST_CALL_MS / 1000) * p.lambdaGb }),
      writes: writeUnits * p.writeUnit,
      reads: total * 2 * p.readUnit,
    };
    const sum = Object.values(cost).reduce((a, b) => a + b, 0);
    const [l1] = loadavg();
    return {
      ok: true,
      lines: [
        `cost: one hour of the page's time, a signed-in user recording (the scripted recognizer: ${WORDS_PER_FINAL + 1} words every ${FINAL_EVERY_MS / 1000} s, ${words.toLocaleString('en')} words, ${chars.toLocaleString('en')} characters), not shared live (load average ${l1!.toFixed(2)})`,
        `  API requests the page sent: ${total} (${[...requests].map(([k, v]) => `${k} ${v.count}`).join(', ')}); save bodies ${(saves.bytes / 1024).toFixed(0)} KB`,
        `  cost of the hour: $${sum.toFixed(5)} (API Gateway $${cost.api.toFixed(5)}, Lambda $${cost.lambda.toFixed(5)} at ${COST_CALL_MS} ms a call, AWS WAF $${cost.waf.toFixed(5)}, CloudFront $${cost.cloudFront.toFixed(5)}, DynamoDB writes $${cost.writes.toFixed(5)} (${writeUnits} units), reads $${cost.reads.toFixed(5)}); stored: ~${((saves.bytes * 1.3) / 1024).toFixed(0)} KB`,
      ],
    };
  } finally {
    await browser?.close();
    await chromiumServer?.close();
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { lines } = await benchCost();
  for (const l of lines) console.log(l);
  process.exit(0);
}
