import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../src/local/server.ts';

/** The local server's static half: the SPA files, gzipped for clients that accept it (as CloudFront does). */
let dir: string;
let server: Server;
let port: number;
const js = `export const x = ${JSON.stringify('a'.repeat(5000))};\n`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'static-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  await writeFile(join(dir, 'assets', 'app-abc.js'), js);
  await writeFile(join(dir, 'icon.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  server = await startLocalServer({ port: 0, webDist: dir, host: '127.0.0.1' });
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await rm(dir, { recursive: true, force: true });
});

function get(path: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('local static server', () => {
  it('gzips text files for clients that accept gzip', async () => {
    const res = await get('/assets/app-abc.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toBe('accept-encoding');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.body.length).toBeLessThan(js.length / 5);
    expect(gunzipSync(res.body).toString()).toBe(js);
  });

  it('sends the plain file otherwise, and never compresses images', async () => {
    const plain = await get('/assets/app-abc.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(js);
    const refused = await get('/assets/app-abc.js', { 'accept-encoding': 'gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    const png = await get('/icon.png', { 'accept-encoding': 'gzip' });
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.body).toHaveLength(4);
  });

  it('answers client-side routes with index.html (gzipped too) and HEAD without a body', async () => {
    const page = await get('/help', { 'accept-encoding': 'gzip' });
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(gunzipSync(page.body).toString()).toContain('<div id="root">');
    const head = await get('/help', { 'accept-encoding': 'gzip' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toHaveLength(0);
    expect((await get('/assets/missing.js')).status).toBe(404);
  });
});
