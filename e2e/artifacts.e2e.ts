import { describe, expect, inject, it } from 'vitest';
import { routes, type RouteDef } from '@app/shared/routes';
import { buildCsp, inlineScriptHashes, securityHeaders } from '../infra/lib/security-headers.ts';
import { baseUrl } from './browser.ts';
import { E2E_ANALYTICS_ORIGINS } from './web-build.ts';

/**
 * Every route through the local server, which runs the handlers Lambda runs (with
 * LOCAL_HANDLERS=bundles: the synthesized bundles themselves), and the headers CloudFront adds.
 */
const ROUTES = Object.values(routes as Record<string, RouteDef>);

/** What CloudFront sends for the page being served (the deploy's CSP context comes from the same variables). */
async function expectedHeaders(): Promise<Record<string, string>> {
  const html = await (await fetch(new URL('/', baseUrl()))).text();
  return securityHeaders(
    buildCsp({
      analyticsOrigins: E2E_ANALYTICS_ORIGINS,
      surveyOrigin: inject('surveyOrigin'),
      scriptHashes: inlineScriptHashes(html),
    }),
  );
}

/** Well-formed values for path parameters: a ULID id, a share code. */
const PARAM_SAMPLES = ['01ARZ3NDEKTSV4RRFFQ69G5FAV', 'Zx9_k2Lm-Q4w'];
const paramsFor = (route: RouteDef, value: string) => Object.fromEntries([...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => [m[1]!, value]));

const headersOf = (res: Response, names: string[]) => Object.fromEntries(names.map((n) => [n, res.headers.get(n)]));

describe('artifacts', () => {
  it('serves the page and its files with the production security headers, the CSP allowing exactly its inline scripts', async () => {
    const expected = await expectedHeaders();
    expect(inlineScriptHashes(await (await fetch(new URL('/', baseUrl()))).text()).length).toBeGreaterThan(0);
    for (const path of ['/', '/login', '/manifest.webmanifest', '/favicon.svg']) {
      const res = await fetch(new URL(path, baseUrl()));
      expect(res.status, path).toBe(200);
      expect(headersOf(res, Object.keys(expected)), path).toEqual(expected);
    }
  });

  it.each(ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s answers an anonymous empty request with JSON, never a 5xx, and the production security headers',
    async (_key, route) => {
      const expected = await expectedHeaders();
      // Path parameters well formed for the route (an id, a share code), standing for nothing stored.
      const value = PARAM_SAMPLES.find((sample) => !route.params || route.params.safeParse(paramsFor(route, sample)).success) ?? PARAM_SAMPLES[0]!;
      const path = route.path.replace(/\{[^}]+\}/g, value);
      const res = await fetch(new URL(path, baseUrl()), {
        method: route.method,
        headers: { 'content-type': 'application/json' },
        body: route.method === 'GET' || route.method === 'DELETE' ? undefined : '{}',
      });
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await res.json()) as { error?: unknown };
      // The body is checked first (400), then the caller (401); a route that takes a Bearer token
      // refuses a request without one (401); an open read has nothing to refuse, except that what
      // its path names does not exist (404).
      if (route.bearerToken) expect(res.status).toBe(401);
      else if (route.auth === 'none' && !route.body) expect(res.status).toBe(route.params ? 404 : 200);
      else if (route.auth === 'none' || route.auth === 'stripe') expect(res.status).toBe(400);
      else expect([400, 401]).toContain(res.status);
      if (res.status >= 400) expect(body.error).toEqual(expect.any(String));
      expect(headersOf(res, Object.keys(expected))).toEqual(expected);
    },
  );
});
