import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTION_DESTINATIONS_MAX } from '@app/shared/constants';
import { ensureTable } from '../src/db/table.ts';
import { setPlan } from '../src/db/users.ts';
import { captionRequest, checkDestinationUrl, maskTarget, nextCaption, youtubeTimestamp } from '../src/domain/caption-destinations.ts';
import { localCaptionReceiver } from '../src/lib/caption-delivery.ts';
import { handler as relayHandler } from '../src/handlers/live/relay-captions.ts';
import { captionReceiver, CAPTION_RECEIVER_PATH, type ReceivedCaption } from '../src/local/caption-receiver.ts';
import { startStreamRelay, matchesFilter, type StreamRelay } from '../src/local/stream-relay.ts';
import { RELAY_FILTER_PATTERN } from '@app/shared/relay';
import { call, registerUser } from './call.ts';
import { recordRoute } from './grant-recorder.ts';

type Destination = { id: string; service: string; target: string; state: string; lastDeliveredAt?: string; error?: string };

let ipSeq = 0;
const freshIp = () => `198.51.100.${++ipSeq}`;

let receiver: { page: ReturnType<typeof captionReceiver>['page']; received: ReceivedCaption[] };
let server: Server;
let base: string;
let relay: StreamRelay;

beforeAll(async () => {
  receiver = captionReceiver();
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      void receiver.page(req, res, url, Buffer.concat(chunks)).then((done) => {
        if (!done) res.writeHead(404).end();
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://localhost:${(server.address() as AddressInfo).port}${CAPTION_RECEIVER_PATH}`;
  process.env.LOCAL_CAPTION_RECEIVER = base;
  // The file's table (test/setup.ts) has no stream until a file that reads it turns it on.
  const client = new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await ensureTable(client, process.env.TABLE_NAME!, { stream: true });
  client.destroy();
  relay = await startStreamRelay({
    endpoint: process.env.DYNAMODB_ENDPOINT!,
    region: 'us-east-1',
    tableName: process.env.TABLE_NAME!,
    // Its DynamoDB requests are checked against RELAY_TABLE_ACTIONS after the run (grant-check.ts).
    handler: async () => (event) => recordRoute('captionRelay', () => relayHandler(event)),
    retryMs: 200,
  });
});

afterAll(async () => {
  delete process.env.LOCAL_CAPTION_RECEIVER;
  await relay.stop();
  await new Promise<void>((r) => server.close(() => r()));
});

async function proUser() {
  const u = await registerUser();
  await setPlan(u.id, 'pro', null);
  return u;
}

/** A Pro speaker's running session, shared. */
async function sharedSession() {
  const u = await proUser();
  const session = await call<{ sessionId: string }>('autosaveSessionId', { token: u.token });
  const sessionId = session.body.sessionId;
  const shared = await call<{ code: string }>('startLiveShare', { token: u.token, body: { sessionId }, sourceIp: freshIp() });
  expect(shared.status).toBe(200);
  let length = 0;
  const say = async (text: string) => {
    const res = await call<{ length: number }>('autosaveSave', {
      token: u.token,
      body: { sessionId, offset: length, text, segments: [], duration: 10, language: 'en-US' },
    });
    expect(res.status).toBe(200);
    length = res.body.length;
  };
  return { u, sessionId, code: shared.body.code, say };
}

const add = (token: string, code: string, service: 'youtube' | 'zoom', url: string) =>
  call<Destination & { error?: string }>('addCaptionDestination', { token, params: { code }, body: { service, url } });

let keySeq = 0;
const receiverUrl = (service: 'youtube' | 'zoom') => {
  const key = `k${Date.now().toString(36)}${++keySeq}`;
  return { key, url: `${base}${service}/closedcaption?${service === 'youtube' ? 'cid' : 'id'}=${key}` };
};

/** What the receiver accepted for one destination (retries of an accepted number left out), once `count` captions are in. */
async function accepted(key: string, count: number, timeoutMs = 20_000): Promise<ReceivedCaption[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = receiver.received.filter((r) => r.key === key && r.status === 200 && !r.duplicate);
    if (got.length >= count || Date.now() > deadline) return got;
    await new Promise((r) => setTimeout(r, 100));
  }
}
const captionText = (r: ReceivedCaption) => (r.service === 'youtube' ? r.body.split('\n')[1]! : r.body);

describe('destination URLs', () => {
  const youtube = 'https://upload.youtube.com/closedcaption?cid=abcd-efgh-ijkl-mnop';
  const zoom = 'https://wmcc.zoom.us/closedcaption?id=200610693&ns=GZHkEA==&expire=86400&sparams=id%2Cns%2Cexpire&signature=nYtXJqRKCW';

  it('accepts the services documented hosts over https', () => {
    expect(checkDestinationUrl('youtube', youtube)).toEqual({ url: youtube });
    expect(checkDestinationUrl('zoom', zoom)).toEqual({ url: zoom });
    expect(checkDestinationUrl('zoom', zoom.replace('wmcc', 'us02wmcc'))).toHaveProperty('url');
  });

  it.each([
    ['youtube', 'http://upload.youtube.com/closedcaption?cid=abcd'],
    ['youtube', 'https://upload.youtube.com.evil.example/closedcaption?cid=abcd'],
    ['youtube', 'https://evil.example/closedcaption?cid=abcd'],
    ['youtube', 'https://upload.youtube.com:8443/closedcaption?cid=abcd'],
    ['youtube', 'https://user:pw@upload.youtube.com/closedcaption?cid=abcd'],
    ['youtube', 'https://upload.youtube.com/other?cid=abcd'],
    ['youtube', 'https://upload.youtube.com/closedcaption'],
    ['youtube', 'https://upload.youtube.com/closedcaption?cid=abcd&seq=4'],
    ['youtube', 'https://127.0.0.1/closedcaption?cid=abcd'],
    ['youtube', 'https://[::1]/closedcaption?cid=abcd'],
    ['youtube', 'https://10.0.0.8/closedcaption?cid=abcd'],
    ['youtube', 'https://169.254.169.254/closedcaption?cid=abcd'],
    ['youtube', 'https://localhost/closedcaption?cid=abcd'],
    ['zoom', 'https://wmcc.zoom.us.evil.example/closedcaption?id=1'],
    ['zoom', 'https://zoom.us/closedcaption?id=1'],
    ['zoom', 'https://evilwmcc.zoom.us/closedcaption?id=1'],
    ['zoom', 'ftp://wmcc.zoom.us/closedcaption?id=1'],
    ['zoom', 'https://upload.youtube.com/closedcaption?cid=abcd'],
    ['youtube', 'not a url'],
  ] as const)('refuses %s %s', (service, url) => {
    expect(checkDestinationUrl(service, url)).toHaveProperty('error');
  });

  it('accepts the local receiver only where LOCAL_CAPTION_RECEIVER is set and never on Lambda', () => {
    const local = `${base}youtube/closedcaption?cid=x`;
    expect(localCaptionReceiver()).toBe(base);
    expect(checkDestinationUrl('youtube', local, localCaptionReceiver())).toEqual({ url: local });
    expect(checkDestinationUrl('youtube', local)).toHaveProperty('error');
    process.env.AWS_LAMBDA_FUNCTION_NAME = 'LiveTranscribe-dev-relay';
    try {
      expect(localCaptionReceiver()).toBeUndefined();
      expect(checkDestinationUrl('youtube', local, localCaptionReceiver())).toHaveProperty('error');
    } finally {
      delete process.env.AWS_LAMBDA_FUNCTION_NAME;
    }
  });

  it('shows the speaker the host and the last four characters only', () => {
    expect(maskTarget(youtube)).toBe('upload.youtube.com …mnop');
  });
});

describe('caption requests, as the services document them', () => {
  const at = new Date(Date.UTC(2026, 10, 26, 7, 30, 5, 42));
  it('YouTube: seq appended, the UTC time line then the text, text/plain', () => {
    const r = captionRequest('youtube', 'https://upload.youtube.com/closedcaption?cid=abc', 3, 'Hello there', 'en-US', at);
    expect(r.url).toBe('https://upload.youtube.com/closedcaption?cid=abc&seq=3');
    expect(r.body).toBe('2026-11-26T07:30:05.042\nHello there\n');
    expect(r.contentType).toMatch(/^text\/plain/);
    expect(youtubeTimestamp(at)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/);
  });
  it('Zoom: seq and lang appended, the text alone, text/plain', () => {
    const r = captionRequest('zoom', 'https://wmcc.zoom.us/closedcaption?id=1&ns=a%3D', 7, 'Olá', 'pt-BR', at);
    expect(r.url).toBe('https://wmcc.zoom.us/closedcaption?id=1&ns=a%3D&seq=7&lang=pt-BR');
    expect(r.body).toBe('Olá');
  });
  it('merges what piled up into one caption, cut after a space past the limit', () => {
    expect(nextCaption('One. \n\nTwo.  Three.', 400)).toEqual({ caption: 'One. Two. Three.', consumed: 19 });
    const long = nextCaption('aaaa bbbb cccc', 10);
    expect(long).toEqual({ caption: 'aaaa bbbb', consumed: 10 });
    expect(nextCaption('   ', 10)).toEqual({ caption: '', consumed: 3 });
  });
  it('a caption of text without spaces ends at a word, never inside a character', () => {
    expect(nextCaption('今日は良い天気ですね。明日も', 8, 'ja-JP')).toEqual({ caption: '今日は良い天気', consumed: 7 });
    expect(nextCaption('สวัสดีครับวันนี้อากาศดี', 12, 'th-TH')).toEqual({ caption: 'สวัสดีครับ', consumed: 10 });
    const emoji = '👍🏽'.repeat(10);
    const { caption, consumed } = nextCaption(emoji, 9);
    expect(caption).toBe('👍🏽'.repeat(2));
    expect(consumed).toBe(8);
  });
  it('the stream filter lets only new chunks of automatic transcriptions through', () => {
    const rec = (eventName: string, SK: string) => ({ eventName, dynamodb: { Keys: { PK: { S: 'USER#1' }, SK: { S: SK } } } });
    expect(matchesFilter(RELAY_FILTER_PATTERN as never, rec('INSERT', 'AUTOC#01J#0000000000'))).toBe(true);
    expect(matchesFilter(RELAY_FILTER_PATTERN as never, rec('MODIFY', 'AUTOC#01J#0000000000'))).toBe(false);
    expect(matchesFilter(RELAY_FILTER_PATTERN as never, rec('INSERT', 'AUTO#01J'))).toBe(false);
    expect(matchesFilter(RELAY_FILTER_PATTERN as never, rec('INSERT', 'TRANSC#01J#0000000000'))).toBe(false);
  });
});

describe('adding, listing, pausing and removing destinations', () => {
  it('refuses a bad URL with 400 and stores nothing', async () => {
    const { u, code } = await sharedSession();
    for (const url of ['http://upload.youtube.com/closedcaption?cid=a', 'https://192.168.1.1/closedcaption?cid=a', 'https://localhost/closedcaption?cid=a', 'https://example.com/closedcaption?cid=a']) {
      const res = await add(u.token, code, 'youtube', url);
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual(expect.any(String));
    }
    const list = await call<{ destinations: Destination[] }>('listCaptionDestinations', { token: u.token, params: { code } });
    expect(list.body.destinations).toEqual([]);
  });

  it('lists them without their URLs; viewers never see one', async () => {
    const { u, code, say } = await sharedSession();
    const secret = `${base}youtube/closedcaption?cid=very-secret-stream-key`;
    const added = await add(u.token, code, 'youtube', secret);
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ service: 'youtube', state: 'waiting', target: `${new URL(base).host} …-key` });
    expect(JSON.stringify(added.body)).not.toContain('very-secret');
    const list = await call<{ destinations: Destination[] }>('listCaptionDestinations', { token: u.token, params: { code } });
    expect(list.body.destinations.map((d) => d.id)).toEqual([added.body.id]);
    expect(JSON.stringify(list.body)).not.toContain('very-secret');
    await say('Hello viewers. ');
    for (const after of [undefined, '0']) {
      const view = await call('viewLiveShare', { params: { code }, query: after === undefined ? {} : { after } });
      expect(view.status).toBe(200);
      expect(JSON.stringify(view.body)).not.toMatch(/secret|youtube|closedcaption|destination/i);
    }
  });

  it('is the owner’s alone (404), a Pro feature to add (403), and not on an ended share (409)', async () => {
    const { u, code } = await sharedSession();
    const other = await proUser();
    const url = 'https://upload.youtube.com/closedcaption?cid=abc';
    expect((await add(other.token, code, 'youtube', url)).status).toBe(404);
    expect((await call('listCaptionDestinations', { token: other.token, params: { code } })).status).toBe(404);
    const added = await add(u.token, code, 'youtube', url);
    expect((await call('removeCaptionDestination', { token: other.token, params: { code, id: added.body.id } })).status).toBe(404);
    expect((await call('updateCaptionDestination', { token: other.token, params: { code, id: added.body.id }, body: { paused: true } })).status).toBe(404);
    const free = await registerUser();
    expect((await add(free.token, code, 'youtube', url)).status).toBe(403);
    for (let i = 1; i < CAPTION_DESTINATIONS_MAX; i++) expect((await add(u.token, code, 'zoom', `https://wmcc.zoom.us/closedcaption?id=${i}`)).status).toBe(200);
    expect((await add(u.token, code, 'zoom', 'https://wmcc.zoom.us/closedcaption?id=9')).status).toBe(409);
    expect((await call('stopLiveShare', { token: u.token, params: { code }, sourceIp: freshIp() })).status).toBe(200);
    expect((await add(u.token, code, 'youtube', url)).status).toBe(409);
  });

  it('pauses, resumes and removes one', async () => {
    const { u, code } = await sharedSession();
    const added = await add(u.token, code, 'zoom', 'https://wmcc.zoom.us/closedcaption?id=77');
    const params = { code, id: added.body.id };
    const paused = await call<Destination>('updateCaptionDestination', { token: u.token, params, body: { paused: true } });
    expect(paused.body.state).toBe('paused');
    const resumed = await call<Destination>('updateCaptionDestination', { token: u.token, params, body: { paused: false } });
    expect(resumed.body.state).toBe('waiting');
    expect((await call('removeCaptionDestination', { token: u.token, params })).status).toBe(200);
    expect((await call('removeCaptionDestination', { token: u.token, params })).status).toBe(404);
    expect((await call('updateCaptionDestination', { token: u.token, params, body: { paused: true } })).status).toBe(404);
  });
});

describe('the relay (the table stream, as on AWS)', () => {
  it('delivers every final once, in order, numbered 1, 2, 3…, to YouTube and Zoom', async () => {
    const { u, code, say } = await sharedSession();
    await say('Said before the destinations. ');
    const yt = receiverUrl('youtube');
    const zm = receiverUrl('zoom');
    expect((await add(u.token, code, 'youtube', yt.url)).status).toBe(200);
    expect((await add(u.token, code, 'zoom', zm.url)).status).toBe(200);
    const words = ['First words. ', 'Second words. ', 'Third words.'];
    for (const w of words) await say(w);
    for (const { key } of [yt, zm]) {
      const got = await accepted(key, 1);
      const text = got.map(captionText).join(' ');
      // Finals that piled up may share a caption; all of them arrive, once, in order.
      const deadline = Date.now() + 15_000;
      let all = text;
      while (all !== 'First words. Second words. Third words.' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        all = receiver.received.filter((r) => r.key === key && r.status === 200 && !r.duplicate).map(captionText).join(' ');
      }
      expect(all).toBe('First words. Second words. Third words.');
      const final = receiver.received.filter((r) => r.key === key && r.status === 200 && !r.duplicate);
      expect(final.map((r) => r.seq)).toEqual(final.map((_, i) => i + 1));
      for (const r of final) expect(r.contentType).toMatch(/^text\/plain/);
      const gaps = final.slice(1).map((r, i) => r.at - final[i]!.at);
      for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(990);
    }
    const ytOne = receiver.received.find((r) => r.key === yt.key)!;
    expect(ytOne.body).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\nFirst words\./);
    expect(receiver.received.find((r) => r.key === zm.key)!.lang).toBe('en-US');
    const list = await call<{ destinations: Destination[] }>('listCaptionDestinations', { token: u.token, params: { code } });
    expect(list.body.destinations.map((d) => d.state)).toEqual(['delivered', 'delivered']);
    expect(list.body.destinations[0]!.lastDeliveredAt).toEqual(expect.any(String));
  }, 40_000);

  it('retries with backoff through 500s and still delivers everything once', async () => {
    const { u, code, say } = await sharedSession();
    const yt = receiverUrl('youtube');
    await add(u.token, code, 'youtube', yt.url);
    await fetch(`${base}faults`, { method: 'PUT', body: JSON.stringify({ key: yt.key, status: 500, count: 2 }) });
    await say('Through the storm. ');
    await say('And after it.');
    const deadline = Date.now() + 20_000;
    let got: ReceivedCaption[] = [];
    while (Date.now() < deadline) {
      got = receiver.received.filter((r) => r.key === yt.key && r.status === 200 && !r.duplicate);
      if (got.map(captionText).join(' ') === 'Through the storm. And after it.') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(got.map(captionText).join(' ')).toBe('Through the storm. And after it.');
    expect(got.map((r) => r.seq)).toEqual(got.map((_, i) => i + 1));
    const failures = receiver.received.filter((r) => r.key === yt.key && r.status === 500);
    expect(failures).toHaveLength(2);
    // The retries carried the same number and the same text.
    expect(failures.every((f) => f.seq === 1 && f.body === got[0]!.body)).toBe(true);
  }, 40_000);

  it('never follows a redirect: the caption stays with the service’s answer, the other address gets nothing', async () => {
    const { u, code, say } = await sharedSession();
    const zm = receiverUrl('zoom');
    const elsewhere = receiverUrl('zoom');
    await add(u.token, code, 'zoom', zm.url);
    await fetch(`${base}faults`, { method: 'PUT', body: JSON.stringify({ key: zm.key, status: 307, count: 1, location: elsewhere.url }) });
    await say('Not to be redirected.');
    const deadline = Date.now() + 10_000;
    let list: Destination[] = [];
    while (Date.now() < deadline) {
      list = (await call<{ destinations: Destination[] }>('listCaptionDestinations', { token: u.token, params: { code } })).body.destinations;
      if (list[0]?.state === 'failed') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(list[0]).toMatchObject({ state: 'failed', error: expect.stringMatching(/^307/) });
    expect(JSON.stringify(list)).not.toContain(zm.key);
    expect(receiver.received.filter((r) => r.key === elsewhere.key)).toEqual([]);
    // The next words carry the caption again, with its number.
    await say(' More.');
    const got = await accepted(zm.key, 1);
    expect(got[0]).toMatchObject({ seq: 1, body: 'Not to be redirected.' });
  }, 30_000);

  it('sends nothing to a paused destination, and nothing past where the share stopped', async () => {
    const { u, code, say } = await sharedSession();
    const paused = receiverUrl('zoom');
    const live = receiverUrl('zoom');
    const p = await add(u.token, code, 'zoom', paused.url);
    await add(u.token, code, 'zoom', live.url);
    await call('updateCaptionDestination', { token: u.token, params: { code, id: p.body.id }, body: { paused: true } });
    await say('Before stopping.');
    await accepted(live.key, 1);
    expect((await call('stopLiveShare', { token: u.token, params: { code }, sourceIp: freshIp() })).status).toBe(200);
    await say(' After stopping.');
    await new Promise((r) => setTimeout(r, 2_500));
    expect(receiver.received.filter((r) => r.key === live.key).map(captionText)).toEqual(['Before stopping.']);
    expect(receiver.received.filter((r) => r.key === paused.key)).toEqual([]);
  }, 30_000);
});
