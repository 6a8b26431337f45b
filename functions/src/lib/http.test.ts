import * as z from 'zod';
import { describe, expect, it, vi } from 'vitest';
import { routes } from '@app/shared/routes';
import { toEvent } from '../local/event.ts';
import { HttpError } from './errors.ts';
import { errorResult, Reply, requestHeaders, route } from './http.ts';

const event = (body?: string, isBase64 = false) => {
  const e = toEvent({ method: 'GET', path: routes.maintenanceMode.path, routePath: routes.maintenanceMode.path, pathParameters: {}, rawQueryString: '', headers: { 'content-type': 'application/json' }, body, sourceIp: '127.0.0.1' });
  return isBase64 ? { ...e, body: Buffer.from(body ?? '').toString('base64'), isBase64Encoded: true } : e;
};

describe('errorResult', () => {
  it('exposes a 4xx HttpError with its extras', () => {
    const r = errorResult(new HttpError(403, 'Only Pro', { requiresPro: true, code: 'requires_pro' }));
    expect(r.statusCode).toBe(403);
    expect(JSON.parse(r.body!)).toEqual({ error: 'Only Pro', requiresPro: true, code: 'requires_pro' });
  });

  it('hides unknown errors behind a generic 500 and logs them', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const prev = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = 'error';
    const r = errorResult(new Error('secret table detail'));
    process.env.LOG_LEVEL = prev;
    expect(r.statusCode).toBe(500);
    expect(r.body).not.toContain('secret table detail');
    expect(JSON.parse(r.body!).error).toMatch(/Something went wrong/);
    expect(spy).toHaveBeenCalledOnce();
    spy.mockRestore();
  });

  it('never exposes the message of a 5xx HttpError', () => {
    const r = errorResult(new HttpError(503, 'db host 10.0.0.1 down'));
    expect(r.statusCode).toBe(503);
    expect(r.body).not.toContain('10.0.0.1');
  });
});

describe('route wrapper', () => {
  it('validates the response with the route schema, dropping unknown fields', async () => {
    const h = route('maintenanceMode', async () => ({ constructionMode: true, internal: 'x' }) as never);
    const r = await h(event());
    expect(JSON.parse(r.body!)).toEqual({ constructionMode: true });
  });

  it('reads base64-encoded bodies', async () => {
    let seen = '';
    const h = route('maintenanceMode', async (ctx) => {
      seen = ctx.rawBody;
      return { constructionMode: false };
    });
    await h(event('{"a":"ção"}', true));
    expect(seen).toBe('{"a":"ção"}');
  });

  it('refuses a body over the size limit with 413', async () => {
    const h = route('maintenanceMode', async () => ({ constructionMode: false }));
    const r = await h(event('x'.repeat(7 * 1024 * 1024)));
    expect(r.statusCode).toBe(413);
  });

  it('maps a zod failure inside a handler to a logged 500, not a leak', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const h = route('maintenanceMode', async () => z.object({ a: z.string() }).parse({}) as never);
    const r = await h(event());
    expect(r.statusCode).toBe(500);
    spy.mockRestore();
  });
});

describe('the REST API event (payload 1.0)', () => {
  const request = (headers: Record<string, string>, rawQueryString = '') =>
    toEvent({ method: 'GET', path: '/x', routePath: '/x', pathParameters: {}, rawQueryString, headers, body: undefined, sourceIp: '10.1.2.3' });

  it('gives the handler every header name in lower case, as sent in any case', async () => {
    let seen: Record<string, string | undefined> = {};
    await route('maintenanceMode', async (ctx) => {
      seen = ctx.headers;
      return { constructionMode: false };
    })(request({ 'Content-Type': 'application/json', 'X-Viewer-Address': '203.0.113.9', authorization: 'Bearer x' }));
    expect(seen).toEqual({ 'content-type': 'application/json', 'x-viewer-address': '203.0.113.9', authorization: 'Bearer x' });
    expect(requestHeaders({ headers: { 'X-Dev-Bypass': 'a', 'x-dev-bypass': 'b' } })).toEqual({ 'x-dev-bypass': 'b' });
    expect(requestHeaders({ headers: null as never })).toEqual({});
  });

  it('reads a repeated query parameter as all its values joined by commas, as one value would never pass', async () => {
    const view = (rawQueryString: string) =>
      toEvent({ method: 'GET', path: '/x', routePath: routes.viewLiveShare.path, pathParameters: { code: 'abcdefghijkl' }, rawQueryString, headers: {}, body: undefined, sourceIp: '10.1.2.3' });
    const e = view('after=5&after=7');
    expect(e.queryStringParameters).toEqual({ after: '7' });
    expect(e.multiValueQueryStringParameters).toEqual({ after: ['5', '7'] });
    const seen: unknown[] = [];
    const h = route('viewLiveShare', async (ctx) => {
      seen.push(ctx.query);
      return new Reply(204, null);
    });
    expect((await h(e)).statusCode).toBe(400);
    expect((await h(view('after=7'))).statusCode).toBe(204);
    expect(seen).toEqual([{ after: 7 }]);
  });
});

describe('client address', () => {
  const withHeaders = (headers: Record<string, string>) =>
    toEvent({ method: 'GET', path: '/x', routePath: '/x', pathParameters: {}, rawQueryString: '', headers, body: undefined, sourceIp: '10.1.2.3' });
  const seen = async (headers: Record<string, string>) => {
    let ip = '';
    await route('maintenanceMode', async (ctx) => {
      ip = ctx.sourceIp;
      return { constructionMode: false };
    })(withHeaders(headers));
    return ip;
  };

  it('is the viewer address CloudFront passes, else the connection address', async () => {
    expect(await seen({ 'x-viewer-address': '203.0.113.9' })).toBe('203.0.113.9');
    expect(await seen({ 'x-viewer-address': '2001:db8::1' })).toBe('2001:db8::');
    expect(await seen({})).toBe('10.1.2.3');
    expect(await seen({ 'x-viewer-address': 'not an ip; drop table' })).toBe('10.1.2.3');
  });
});
