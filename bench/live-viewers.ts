import { Agent, request } from 'node:http';
import { LIVE_POLL_MS } from '@app/shared/constants';
import { routeUrl } from '@app/shared/routes';

/**
 * The live benchmark's simulated viewers, in a process of their own (so the local server keeps
 * its thread to itself): HTTP clients that follow a share as the viewer page does
 * (web/src/features/live/lib/follow-live.ts): each asks the view from the `next` of its last
 * answer, again at once after an answer with text (the server holds a request at the end until
 * there is more), no sooner than LIVE_POLL_MS after the last request otherwise, and pings the viewer count every `pingMs`. Each viewer sends from
 * one of `addresses` loopback addresses (127.0.1.1, 127.0.1.2, ...), so the per-address limits
 * see a crowd from many places, not one address. Reports the requests, bytes and errors, and
 * whether each viewer's text holds the speaker's markers in order, each once.
 */
export interface ViewersInput {
  url: string;
  code: string;
  viewers: number;
  pingMs: number;
  endAt: number;
  addresses: number;
}
export interface ViewersOutput {
  /** View requests answered, and their bytes (status line, headers and body, as sent). */
  served: number;
  bytes: number;
  pings: number;
  /** Pings the server refused with 429 (its per-share limit, sized for LIVE_VIEWERS_MAX viewers). */
  pingsLimited: number;
  /** Viewers whose text lacks a marker between two it has, repeats one, or has them out of order. */
  wrong: number;
  /** Markers the furthest viewer got, and the fewest any viewer got. */
  markersMax: number;
  markersMin: number;
  errors: string[];
}

/** How long a crowd of `viewers` takes to join (bench/live.ts measures from when all have). */
export const joinMs = (viewers: number) => Math.max(LIVE_POLL_MS, viewers);
/** Longer than any held view request (LIVE_HOLD_SECONDS), so only a stuck request times out. */
const REQUEST_TIMEOUT_MS = 30_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function run({ url, code, viewers, pingMs, endAt, addresses }: ViewersInput): Promise<ViewersOutput> {
  const { hostname, port } = new URL(url);
  const began = Date.now();
  // A connection per viewer for its view requests; its pings queue on a few per address (a socket each would double the open files).
  const agents = Array.from({ length: addresses }, () => new Agent({ keepAlive: true, maxSockets: Math.ceil(viewers / addresses) + 2 }));
  const pingAgents = Array.from({ length: addresses }, () => new Agent({ keepAlive: true, maxSockets: 4 }));
  const fresh = new Agent({ keepAlive: false });
  const send = (n: number, method: string, path: string, body?: string, retry = true): Promise<{ status: number; body: string; bytes: number }> =>
    new Promise((resolve, reject) => {
      const a = n % addresses;
      const req = request(
        {
          host: hostname,
          port,
          method,
          path,
          localAddress: `127.0.${1 + Math.floor(a / 250)}.${1 + (a % 250)}`,
          agent: retry ? (method === 'POST' ? pingAgents[a] : agents[a]) : fresh,
          timeout: REQUEST_TIMEOUT_MS,
          headers: body ? { 'content-type': 'application/json' } : {},
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks);
            const head = res.rawHeaders.reduce((sum, h) => sum + h.length + 2, 17);
            resolve({ status: res.statusCode ?? 0, body: text.toString('utf8'), bytes: head + text.length });
          });
        },
      );
      // A kept-alive connection the server closed just as it was reused resets: like a browser, send once more (on a new connection).
      req.on('timeout', () => req.destroy(new Error('no answer in time')));
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (retry && req.reusedSocket && err.code === 'ECONNRESET') resolve(send(n, method, path, body, false));
        else reject(new Error(`${err.message} (${req.reusedSocket ? 'a kept-alive connection' : 'a new connection'}, ${((Date.now() - began) / 1000).toFixed(1)} s in)`));
      });
      req.end(body);
    });
  const out: ViewersOutput = { served: 0, bytes: 0, pings: 0, pingsLimited: 0, wrong: 0, markersMax: 0, markersMin: Infinity, errors: [] };
  const fail = (what: string) => {
    if (out.errors.length < 20) out.errors.push(what);
    else out.errors.push('');
  };
  const viewer = async (n: number) => {
    // Joins spread over a millisecond a viewer (at least LIVE_POLL_MS): a crowd arriving, not one burst of connections.
    await sleep((n * joinMs(viewers)) / viewers);
    const viewerId = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    let next = 0;
    let text = '';
    let lastPing = 0;
    while (Date.now() < endAt) {
      const tick = Date.now();
      let brought = false;
      if (tick - lastPing >= pingMs) {
        lastPing = tick;
        send(n, 'POST', routeUrl('recordLiveViewer', { code }), JSON.stringify({ viewerId })).then(
          (r) => {
            out.pings++;
            if (r.status === 429) out.pingsLimited++;
            else if (r.status !== 200) fail(`ping ${r.status} ${r.body}`);
          },
          (err: Error) => fail(`ping ${err.message}`),
        );
      }
      try {
        const res = await send(n, 'GET', routeUrl('viewLiveShare', { code }, { after: next }));
        out.served++;
        out.bytes += res.bytes;
        if (res.status !== 200) fail(`view ${res.status} ${res.body}`);
        else {
          const body = JSON.parse(res.body) as { from: number; text: string; next: number };
          // As the viewer page does: the text starts at `from`, at or before `next`.
          if (body.next > next) {
            text += body.text.slice(Math.max(0, next - body.from));
            next = body.next;
            brought = true;
          }
        }
      } catch (err) {
        fail(`view ${(err as Error).message}`);
      }
      if (!brought) await sleep(Math.max(0, LIVE_POLL_MS - (Date.now() - tick)));
    }
    // The speaker's markers (m<n>x) follow each other: n, n+1, n+2... from the first this viewer got.
    const markers = [...text.matchAll(/m(\d+)x/g)].map((m) => Number(m[1]));
    if (markers.some((m, i) => i > 0 && m !== markers[i - 1]! + 1)) out.wrong++;
    out.markersMax = Math.max(out.markersMax, markers.at(-1) ?? 0);
    out.markersMin = Math.min(out.markersMin, markers.at(-1) ?? 0);
  };
  await Promise.all(Array.from({ length: viewers }, (_, n) => viewer(n)));
  for (const agent of [...agents, ...pingAgents]) agent.destroy();
  return out;
}

// Forked by bench/live.ts: says it is ready, gets its input, answers, all over the IPC channel.
if (process.send) {
  process.once('message', async (input) => {
    const out = await run(input as ViewersInput);
    process.send!(out, undefined, {}, () => process.disconnect());
  });
  process.send('ready');
}
