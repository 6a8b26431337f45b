import { Agent, request } from 'node:http';
import { LIVE_POLL_MS } from '@app/shared/constants';
import { findRoute, responseCache, viewerRequest } from '../functions/src/local/server.ts';
import type { Result } from '../functions/src/lib/http.ts';
import { percentile } from './percentile.ts';
import { routeUrl, type RouteDef } from '@app/shared/routes';

/**
 * The live benchmark's simulated viewers, in a process of their own (so the local server keeps
 * its thread to itself): clients that follow a share as the viewer page does
 * (web/src/features/live/lib/follow-live.ts): each asks the view from the `next` of its last
 * answer, again at once after an answer with text (the server holds a request at the end until
 * there is more), no sooner than LIVE_POLL_MS after the last request otherwise, and pings the
 * viewer count every `pingMs`. Reports the requests, bytes and errors, and whether each viewer's
 * text holds the speaker's markers in order, each once.
 *
 * What is simulated here is the CDN tier: the viewers' view requests go to `pops` simulated
 * CloudFront locations in this process (viewer n to location n mod `pops`), each running the
 * live behaviour's viewer-request function (the CloudFront Function source) and the local
 * server's own edge cache (`responseCache`: the answer kept LIVE_CACHE_SECONDS per path and
 * `after`, `no-store` never kept, concurrent requests for one key collapsed into one origin
 * request, however long the origin holds it). Only a location's origin requests reach the local
 * server, over HTTP and marked with CloudFront's `Via`, so the server passes them straight to the
 * handler, as API Gateway does. What is real: the origin (the local server's handlers on
 * DynamoDB Local) and the pings, which CloudFront never caches: every ping is an HTTP request to
 * a local server of its own (`pingUrl`, on the same store: the ping route's own function
 * instances), from one of `addresses` loopback addresses (127.0.1.1, 127.0.1.2, ...).
 */
export interface ViewersInput {
  /** The origin of the view requests. */
  url: string;
  /** The origin of the pings (instances of their own, as on AWS). */
  pingUrl: string;
  code: string;
  viewers: number;
  pingMs: number;
  endAt: number;
  addresses: number;
  /** Simulated CloudFront locations the viewers are spread over. */
  pops: number;
}
export interface ViewersOutput {
  /** View requests answered at the simulated locations, and their bytes (status line, headers and body, as a location sends them). */
  served: number;
  bytes: number;
  /** The locations' requests to the origin (the local server). */
  originRequests: number;
  pings: number;
  /** Pings the server refused with 429. */
  pingsLimited: number;
  /** Each ping's time from sent to answered (every ping is awaited before the crowd answers), ms. */
  pingTimes: { p50: number; p95: number; max: number };
  /**
   * When the viewers got each of the speaker's markers (`m<n>x`, by n): the 0th, 1st, ... 100th
   * percentile of the moments (epoch ms) its viewers' answers brought it, and how many viewers got it.
   */
  arrivals: Record<number, { viewers: number; percentiles: number[] }>;
  /** Viewers whose text lacks a marker between two it has, repeats one, or has them out of order. */
  wrong: number;
  /** Markers the furthest viewer got, and the fewest any viewer got. */
  markersMax: number;
  markersMin: number;
  errors: string[];
}

/**
 * How long a crowd of `viewers` takes to join (bench/live.ts measures from when all have): 5 ms a
 * viewer, 200 a second, at least LIVE_POLL_MS. A viewer pings as it joins, and again every
 * LIVE_VIEWER_PING_MS (50 s): 10,000 viewers arriving at 200 a second send 200 pings a second
 * from the first second to the last, the crowd's steady rate. A faster arrival is a burst on top
 * of it that the origin's own capacity absorbs (Lambda's concurrency, the ping route's API
 * throttle of 1,000 a second, infra/lib/throttling.ts), which the local server's one thread on
 * this machine's cores cannot stand in for: at 333 a second it ran half a minute of pings behind
 * while the crowd joined.
 */
export const joinMs = (viewers: number) => Math.max(LIVE_POLL_MS, viewers * 5);
/**
 * A view request's: longer than any held view request (LIVE_HOLD_SECONDS), so only a stuck request
 * times out. A ping's is the ping interval instead: the viewer page never gives up on a ping (the
 * count is best effort), and one answered before the viewer's next is due still counts it.
 */
const REQUEST_TIMEOUT_MS = 30_000;
/** Connections a simulated location keeps to the origin (its requests are few: one per key at a time). */
const POP_ORIGIN_SOCKETS = 16;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Headers of one connection, not passed on by a location (RFC 9110). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);

async function run({ url, pingUrl, code, viewers, pingMs, endAt, addresses, pops }: ViewersInput): Promise<ViewersOutput> {
  const origin = new URL(url);
  const pingOrigin = new URL(pingUrl);
  const began = Date.now();
  const addressOf = (third: number, i: number) => `127.0.${third + Math.floor(i / 250)}.${1 + (i % 250)}`;
  // The pings queue on a few connections per address (a socket each would double the open files).
  const pingAgents = Array.from({ length: addresses }, () => new Agent({ keepAlive: true, maxSockets: 4 }));
  const popAgents = Array.from({ length: pops }, () => new Agent({ keepAlive: true, maxSockets: POP_ORIGIN_SOCKETS }));
  const fresh = new Agent({ keepAlive: false });
  type Answer = { status: number; headers: Record<string, string>; body: string };
  const send = (
    to: { origin: URL; agent: Agent; localAddress: string; timeoutMs: number },
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string,
    retry = true,
  ): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const req = request(
        { host: to.origin.hostname, port: to.origin.port, method, path, localAddress: to.localAddress, agent: retry ? to.agent : fresh, timeout: to.timeoutMs, headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const kept: Record<string, string> = {};
            for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) kept[k] = Array.isArray(v) ? v.join(', ') : v;
            resolve({ status: res.statusCode ?? 0, headers: kept, body: Buffer.concat(chunks).toString('utf8') });
          });
        },
      );
      // A kept-alive connection the server closed just as it was reused resets: like a browser, send once more (on a new connection).
      req.on('timeout', () => req.destroy(new Error('no answer in time')));
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (retry && req.reusedSocket && err.code === 'ECONNRESET') resolve(send(to, method, path, headers, body, false));
        else reject(new Error(`${err.message} (${req.reusedSocket ? 'a kept-alive connection' : 'a new connection'}, ${((Date.now() - began) / 1000).toFixed(1)} s in)`));
      });
      req.end(body);
    });

  const out: ViewersOutput = {
    served: 0,
    bytes: 0,
    originRequests: 0,
    pings: 0,
    pingsLimited: 0,
    pingTimes: { p50: NaN, p95: NaN, max: NaN },
    arrivals: {},
    wrong: 0,
    markersMax: 0,
    markersMin: Infinity,
    errors: [],
  };
  const pingTimes: number[] = [];
  /**
   * The answers' bodies and the markers in a text, worked out once for the crowd: its viewers get
   * the same few answers (each real viewer parses its own, on its own device).
   */
  const memo = <T,>(make: (key: string) => T) => {
    const known = new Map<string, T>();
    return (key: string) => {
      let value = known.get(key);
      if (value === undefined) {
        value = make(key);
        if (known.size >= 256) known.delete(known.keys().next().value!);
        known.set(key, value);
      }
      return value;
    };
  };
  const parse = memo((raw) => JSON.parse(raw) as { from: number; text: string; next: number });
  const markersIn = memo((text) => [...text.matchAll(/m(\d+)x/g)].map((m) => Number(m[1])));
  const pending = new Set<Promise<void>>();
  const arrivals = new Map<number, number[]>();
  const fail = (what: string) => {
    if (out.errors.length < 20) out.errors.push(what);
    else out.errors.push('');
  };

  // What the viewer-request function and the route table make of a path: its answer depends on the path and query
  // alone (the viewer's address only fills a header), so it is worked out once per path, in this process that has
  // to play every location on cores it shares with the origin; the headers are made per origin request.
  const paths = new Map<string, { url: URL; def: RouteDef } | { response: Result }>();
  const pathOf = (path: string) => {
    let known = paths.get(path);
    if (!known) {
      const url = new URL(path, 'http://edge');
      const edge = viewerRequest({ method: 'GET', headers: {} }, '127.0.0.1', url);
      const found = findRoute('GET', url.pathname);
      if (!edge || !found || found === 'method') throw new Error(`no API route for ${path}`);
      known = 'response' in edge ? { response: edge.response } : { url, def: found.def };
      paths.set(path, known);
    }
    return known;
  };
  // The simulated CloudFront locations: each its own edge cache, with the viewer-request function's outcome.
  const locations = popAgents.map((agent, i) => {
    const cached = responseCache();
    const to = { origin, agent, localAddress: addressOf(3, i), timeoutMs: REQUEST_TIMEOUT_MS };
    const via = `1.1 pop${i}.cloudfront.net (CloudFront)`;
    return (path: string, viewerIp: string): Promise<Result> => {
      const known = pathOf(path);
      if ('response' in known) return Promise.resolve(known.response);
      return cached(known.def, known.url, async () => {
        out.originRequests++;
        const edge = viewerRequest({ method: 'GET', headers: {} }, viewerIp, known.url) as { headers: Record<string, string> };
        const r = await send(to, 'GET', path, { ...edge.headers, via });
        return { statusCode: r.status, headers: r.headers, body: r.body };
      });
    };
  });
  /** What a location sends for an answer: the status line, the headers and the body. */
  const sizeOf = (r: Result) =>
    Object.entries(r.headers ?? {}).reduce((sum, [k, v]) => sum + k.length + String(v).length + 4, 17) + Buffer.byteLength(r.body ?? '');

  const viewer = async (n: number) => {
    // Joins spread over joinMs: a crowd arriving, not one burst of connections.
    await sleep((n * joinMs(viewers)) / viewers);
    const viewerId = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const address = addressOf(1, n % addresses);
    const pingTo = { origin: pingOrigin, agent: pingAgents[n % addresses]!, localAddress: address, timeoutMs: pingMs };
    const location = locations[n % pops]!;
    let next = 0;
    let text = '';
    let lastPing = 0;
    while (Date.now() < endAt) {
      const tick = Date.now();
      let brought = false;
      if (tick - lastPing >= pingMs) {
        lastPing = tick;
        const ping = send(pingTo, 'POST', routeUrl('recordLiveViewer', { code }), { 'content-type': 'application/json' }, JSON.stringify({ viewerId })).then(
          (r) => {
            out.pings++;
            pingTimes.push(Date.now() - tick);
            if (r.status === 429) out.pingsLimited++;
            else if (r.status !== 200) fail(`ping ${r.status} ${r.body}`);
          },
          (err: Error) => fail(`ping ${err.message}`),
        );
        pending.add(ping);
        void ping.finally(() => pending.delete(ping));
      }
      try {
        // Stamped as the answer reaches this viewer, before any viewer works on it: the crowd's
        // viewers take turns on this process's one thread, where each real one has a device of its own.
        const { res, arrived } = await location(routeUrl('viewLiveShare', { code }, { after: next }), address).then((r) => ({ res: r, arrived: Date.now() }));
        out.served++;
        out.bytes += sizeOf(res);
        if (res.statusCode !== 200) fail(`view ${res.statusCode} ${res.body}`);
        else {
          const body = parse(res.body);
          // As the viewer page does: the text starts at `from`, at or before `next`.
          if (body.next > next) {
            const added = body.text.slice(Math.max(0, next - body.from));
            for (const marker of markersIn(added)) {
              const list = arrivals.get(marker) ?? [];
              list.push(arrived);
              arrivals.set(marker, list);
            }
            text += added;
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
  // The pings still on their way: a backlog at the origin shows as their times, not as pings never counted.
  while (pending.size) await Promise.all(pending);
  const sorted = pingTimes.sort((a, b) => a - b);
  out.pingTimes = { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) ?? NaN };
  for (const [marker, times] of arrivals) {
    times.sort((a, b) => a - b);
    out.arrivals[marker] = { viewers: times.length, percentiles: Array.from({ length: 101 }, (_, p) => percentile(times, p)) };
  }
  for (const agent of [...pingAgents, ...popAgents, fresh]) agent.destroy();
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
