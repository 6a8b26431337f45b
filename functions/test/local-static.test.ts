import { mkdtemp, mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPathPatterns } from '@app/shared/routes';
import { buildCsp, inlineScriptHashes, securityHeaders } from '../../infra/lib/security-headers.ts';
import { startLocalServer } from '../src/local/server.ts';

/** The local server's static half: the SPA files, gzipped for clients that accept it (as CloudFront does). */
let dir: string;
let server: Server;
let port: number;
const js = `export const x = ${JSON.stringify('a'.repeat(5000))};\n`;
const page = (inline: string) => `<!doctype html><script>${inline}</script><div id="root"></div>`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'static-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(join(dir, 'index.html'), page('window.a=1'));
  await writeFile(join(dir, 'assets', 'app-abc.js'), js);
  await writeFile(join(dir, 'icon.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  // No host given: the server listens on this machine only (a test below checks it).
  server = await startLocalServer({
    port: 0,
    webDist: dir,
    csp: { surveyOrigin: 'https://forms.example.com' },
    // A stand-in for a third-party site (like the checkout simulator).
    localPages: [
      async (_req, res, url) => {
        if (url.pathname !== '/local/page') return false;
        res.writeHead(200, { 'content-type': 'text/plain' }).end('third party');
        return true;
      },
    ],
  });
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

  it("answers the API's paths as the API (JSON, a 404 for an unknown route) and the paths beside them with the SPA, as CloudFront does", async () => {
    for (const pattern of apiPathPatterns()) {
      const api = pattern.replace('*', 'no/such/route/here');
      const res = await get(api);
      expect(res.headers['content-type'], api).toMatch(/^application\/json/);
      expect(res.status, api).toBe(pattern.includes('*') ? 404 : 405); // a lone segment is a route, here asked with GET
      for (const beside of [pattern.replace(/\/\*$/, ''), `${pattern.replace(/\/\*$/, '')}-page`]) {
        if (apiPathPatterns().includes(beside)) continue;
        const page = await get(beside);
        expect(page.status, beside).toBe(200);
        expect(page.body.toString(), beside).toContain('<div id="root">');
      }
    }
  });
});

describe('local server security headers', () => {
  const expected = (inline: string) =>
    securityHeaders(buildCsp({ surveyOrigin: 'https://forms.example.com', scriptHashes: inlineScriptHashes(page(inline)) }));

  it("sends CloudFront's security headers on pages, files and API answers, the CSP allowing index.html's inline script by hash", async () => {
    const headers = expected('window.a=1');
    expect(headers['content-security-policy']).toContain(inlineScriptHashes(page('window.a=1'))[0]);
    expect(headers['content-security-policy']).toContain('frame-src https://www.google.com/recaptcha/ https://recaptcha.google.com/recaptcha/ https://forms.example.com;');
    const unknownApiPath = apiPathPatterns()[0]!.replace('*', 'no/such/route/here');
    for (const path of ['/help', '/assets/app-abc.js', '/icon.png', '/assets/missing.js', unknownApiPath]) {
      const res = await get(path);
      for (const [name, value] of Object.entries(headers)) expect(res.headers[name], `${path} ${name}`).toBe(value);
    }
    expect((await get(unknownApiPath)).status).toBe(404);
  });

  it('allows the microphone, on-device speech recognition and the Translator to this origin only', async () => {
    const policy = (await get('/')).headers['permissions-policy'];
    expect(policy).toContain('microphone=(self)');
    expect(policy).toContain('on-device-speech-recognition=(self)');
    expect(policy).toContain('translator=(self)');
    expect(policy).toContain('camera=()');
  });

  it('follows a rebuilt index.html: the new inline script is allowed, the old one no longer', async () => {
    await writeFile(join(dir, 'index.html'), page('window.b=2'));
    // A new modification time, even on file systems with coarse timestamps.
    const later = new Date(Date.now() + 5_000);
    await utimes(join(dir, 'index.html'), later, later);
    const csp = (await get('/')).headers['content-security-policy'];
    expect(csp).toBe(expected('window.b=2')['content-security-policy']);
    expect(csp).not.toContain(inlineScriptHashes(page('window.a=1'))[0]);
  });

  it('sends none of them on local stand-ins for third-party pages', async () => {
    const res = await get('/local/page');
    expect(res.body.toString()).toBe('third party');
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('the local server', () => {
  it('listens on this machine only unless told otherwise', () => {
    expect((server.address() as AddressInfo).address).toBe('127.0.0.1');
  });
});

