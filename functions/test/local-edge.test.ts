import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '@app/shared/constants';
import { routeUrl } from '@app/shared/routes';
import { LIVE_OFFSET_REFUSAL } from '../../infra/lib/edge-functions.ts';
import type { Event } from '../src/lib/http.ts';
import { startLocalServer, type LocalServer } from '../src/local/server.ts';

/**
 * The local server runs CloudFront's viewer-request functions (infra/lib/edge-functions.ts) on
 * the paths CloudFront does: the live view's offset check on the cached live pattern, the
 * viewer address on every API path. Handlers here only record the request they were given.
 */
let server: LocalServer;
let dir: string;
let base: string;
const seen: Event[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'local-edge-'));
  server = await startLocalServer({
    port: 0,
    webDist: dir,
    host: '127.0.0.1',
    loadHandler: async () => async (event) => {
      seen.push(event);
      return { statusCode: 200, headers: { 'content-type': 'application/json', 'set-cookie': SET_COOKIE }, body: '{}' };
    },
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await rm(dir, { recursive: true, force: true });
});

const CODE = 'AbCdEfGhIjKl';
const SET_COOKIE = `${SESSION_COOKIE}=from-the-handler; Max-Age=60; Path=/; HttpOnly; Secure; SameSite=Strict`;
const FORGED = { 'x-viewer-address': '198.51.100.7' };
async function send(path: string, init: RequestInit = {}) {
  const before = seen.length;
  const res = await fetch(`${base}${path}`, { ...init, headers: { ...FORGED, ...init.headers } });
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text(), reached: seen.slice(before) };
}

describe('CloudFront viewer-request functions on the local server', () => {
  it('answers a live view with a non-canonical offset with the edge 400, never reaching the handler', async () => {
    for (const after of ['00', '007', '+1', '0x0', '1e3', '%31', '-1', '99999999999']) {
      const res = await send(`${routeUrl('viewLiveShare', { code: CODE })}?after=${after}`);
      expect(res.status, after).toBe(400);
      expect(res.type, after).toMatch(/^application\/json/);
      expect(JSON.parse(res.body), after).toEqual(LIVE_OFFSET_REFUSAL);
      expect(res.reached, after).toEqual([]);
    }
  });

  it('passes a canonical (or absent) offset on, with the viewer address set and a forged one replaced', async () => {
    for (const query of ['?after=0', '?after=1234567890', '', '?after=5&x=00']) {
      const res = await send(`${routeUrl('viewLiveShare', { code: CODE })}${query}`);
      expect(res.status, query).toBe(200);
      expect(res.reached, query).toHaveLength(1);
      expect(res.reached[0]!.headers['x-viewer-address'], query).toBe('127.0.0.1');
      expect(res.reached[0]!.queryStringParameters ?? {}, query).toEqual(Object.fromEntries(new URLSearchParams(query)));
    }
  });

  it('runs the plain viewer-address function on the other API paths: no offset check there', async () => {
    const ping = await send(`${routeUrl('recordLiveViewer', { code: CODE })}?after=00`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    const me = await send(`${routeUrl('getMe')}?after=00`);
    for (const res of [ping, me]) {
      expect(res.status).toBe(200);
      expect(res.reached[0]!.headers['x-viewer-address']).toBe('127.0.0.1');
    }
  });

  it('passes the Cookie header to the API and its Set-Cookie back, as the API behaviours of CloudFront do (infra/test/web.test.ts)', async () => {
    const cookie = `${SESSION_COOKIE}=a.b.c; other=1`;
    for (const [path, method] of [[routeUrl('getMe'), 'GET'], [routeUrl('logout'), 'POST'], [`${routeUrl('viewLiveShare', { code: CODE })}?after=424242`, 'GET']] as const) {
      const before = seen.length;
      const res = await fetch(`${base}${path}`, { method, headers: { cookie } });
      expect(res.headers.get('set-cookie'), path).toBe(SET_COOKIE);
      expect(seen.slice(before).map((e) => e.headers.cookie), path).toEqual([cookie]);
    }
  });
});
