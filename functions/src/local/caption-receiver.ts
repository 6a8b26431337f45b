import type { LocalPage } from './server.ts';

/**
 * The local caption receiver: stands in for YouTube Live's and Zoom's caption ingestion (like the
 * mail outbox), at `<server>/_local/captions/youtube/closedcaption?cid=…` and
 * `<server>/_local/captions/zoom/closedcaption?id=…`. The local server gives its base URL to the
 * handlers as LOCAL_CAPTION_RECEIVER, which lets a destination point here (never on Lambda:
 * lib/caption-delivery.ts). It answers as the services document: 200 with its UTC time for a
 * caption; a `seq` it already took is a retry, answered 200 again and recorded as a duplicate.
 *
 * For tests and benchmarks (local only): `GET /_local/captions/received?key=<cid or id>` lists what
 * a destination received, and `PUT /_local/captions/faults` `{key, status, count, location?}`
 * makes the next `count` requests of that destination fail with `status` (a 3xx with `location`).
 */
export const CAPTION_RECEIVER_PATH = '/_local/captions/';

export interface ReceivedCaption {
  service: 'youtube' | 'zoom';
  /** The stream's `cid` (or `id`) or the meeting's `id`: which destination. */
  key: string;
  seq: number | null;
  lang: string | null;
  contentType: string;
  body: string;
  /** What the receiver answered. */
  status: number;
  /** A `seq` it had already accepted (a retry). */
  duplicate: boolean;
  /** Epoch ms when it arrived. */
  at: number;
}

interface Fault {
  status: number;
  count: number;
  location?: string;
}

const INGEST = /^\/_local\/captions\/(youtube|zoom)\/closedcaption$/;

export function captionReceiver(options: { print?: boolean } = {}): { page: LocalPage; received: ReceivedCaption[] } {
  const received: ReceivedCaption[] = [];
  const faults = new Map<string, Fault>();
  const accepted = new Map<string, Set<number>>();
  const page: LocalPage = async (req, res, url, body) => {
    if (!url.pathname.startsWith(CAPTION_RECEIVER_PATH)) return false;
    const reply = (status: number, text: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers });
      res.end(text);
      return true;
    };
    if (url.pathname === `${CAPTION_RECEIVER_PATH}received` && req.method === 'GET') {
      const key = url.searchParams.get('key');
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(received.filter((r) => key === null || r.key === key)));
      return true;
    }
    if (url.pathname === `${CAPTION_RECEIVER_PATH}faults` && req.method === 'PUT') {
      const fault = JSON.parse(body.toString('utf8')) as Fault & { key: string };
      faults.set(fault.key, { status: fault.status, count: fault.count, location: fault.location });
      return reply(204, '');
    }
    const ingest = INGEST.exec(url.pathname);
    if (!ingest) return reply(404, 'Not found');
    if (req.method !== 'POST') return reply(405, 'Method not allowed. Not a POST.');
    const service = ingest[1] as 'youtube' | 'zoom';
    const key = url.searchParams.get(service === 'youtube' ? 'cid' : 'id') ?? url.searchParams.get('id') ?? '';
    const seqText = url.searchParams.get('seq');
    const seq = seqText !== null && /^\d+$/.test(seqText) ? Number(seqText) : null;
    const entry: ReceivedCaption = {
      service,
      key,
      seq,
      lang: url.searchParams.get('lang'),
      contentType: req.headers['content-type'] ?? '',
      body: body.toString('utf8'),
      status: 200,
      duplicate: false,
      at: Date.now(),
    };
    received.push(entry);
    const fault = faults.get(key);
    if (fault && fault.count > 0) {
      fault.count--;
      entry.status = fault.status;
      return reply(fault.status, fault.status >= 500 ? 'Internal Server Error' : 'Refused', fault.location ? { location: fault.location } : {});
    }
    if (seq === null) {
      entry.status = 403;
      return reply(403, 'Unauthorized. Missing &seq query parameter.');
    }
    const seen = accepted.get(key) ?? new Set<number>();
    accepted.set(key, seen);
    entry.duplicate = seen.has(seq);
    seen.add(seq);
    if (options.print && !entry.duplicate) console.log(`caption receiver: ${service} ${key} seq ${seq}: ${JSON.stringify(entry.body)}`);
    return reply(200, new Date().toISOString().slice(0, 23));
  };
  return { page, received };
}
