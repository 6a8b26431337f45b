import { Agent, request } from 'node:http';
import { routeUrl } from '@app/shared/routes';

/**
 * The live benchmark's viewers, in a process of their own (so the local server keeps its
 * thread to itself): each polls the view every `pollMs` from its own offset over a keep-alive
 * connection, and pings the viewer count every `pingMs`. Reports when each answer that brought
 * new text arrived and the offsets it covered (after each viewer's first answer), and the text
 * each viewer pieced together.
 */
export interface ViewersInput {
  url: string;
  code: string;
  viewers: number;
  pollMs: number;
  pingMs: number;
  endAt: number;
}
export interface ViewersOutput {
  /** [arrival time (ms since epoch), from offset, to offset] of each answer that brought text. */
  deliveries: [number, number, number][];
  texts: string[];
  served: number;
  /** How long each view request took, sent to answered (ms). */
  latencies: number[];
  errors: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function run({ url, code, viewers, pollMs, pingMs, endAt }: ViewersInput): Promise<ViewersOutput> {
  const { hostname, port } = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: viewers * 2 });
  const fresh = new Agent({ keepAlive: false });
  // A kept-alive connection the server closed just as it was reused resets: like a browser, send once more (on a new connection).
  const send = (method: string, path: string, body?: string, retry = true): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      const req = request({ host: hostname, port, method, path, agent: retry ? agent : fresh, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (retry && req.reusedSocket && err.code === 'ECONNRESET') resolve(send(method, path, body, false));
        else reject(err);
      });
      req.end(body);
    });
  const out: ViewersOutput = { deliveries: [], texts: [], served: 0, latencies: [], errors: [] };
  const fail = (what: string) => {
    if (out.errors.length < 20) out.errors.push(what);
    else out.errors.push('');
  };
  const viewer = async (n: number) => {
    await sleep((n * pollMs) / viewers);
    const viewerId = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    let next = 0;
    let text = '';
    let lastPing = 0;
    let joined = false;
    while (Date.now() < endAt) {
      const tick = Date.now();
      if (tick - lastPing >= pingMs) {
        lastPing = tick;
        send('POST', routeUrl('recordLiveViewer', { code }), JSON.stringify({ viewerId })).then(
          (r) => r.status === 200 || fail(`ping ${r.status} ${r.body}`),
          (err: Error) => fail(`ping ${err.message}`),
        );
      }
      try {
        const res = await send('GET', routeUrl('viewLiveShare', { code }, { after: next }));
        out.served++;
        out.latencies.push(Date.now() - tick);
        if (res.status !== 200) fail(`view ${res.status} ${res.body}`);
        else {
          const body = JSON.parse(res.body) as { from: number; text: string; next: number };
          // The first answer catches up on what was said before the viewer came: not a live delivery.
          if (body.next > next && joined) out.deliveries.push([Date.now(), next, body.next]);
          joined = true;
          // As the viewer page does: the text starts at `from`, at or before `next`.
          if (body.next > next) {
            text += body.text.slice(Math.max(0, next - body.from));
            next = body.next;
          }
        }
      } catch (err) {
        fail(`view ${(err as Error).message}`);
      }
      await sleep(Math.max(0, pollMs - (Date.now() - tick)));
    }
    out.texts[n] = text;
  };
  await Promise.all(Array.from({ length: viewers }, (_, n) => viewer(n)));
  agent.destroy();
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
