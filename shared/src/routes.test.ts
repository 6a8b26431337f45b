import { describe, expect, it } from 'vitest';
import { apiPathPatterns, closedDuringMaintenance, fillPath, isApiPath, pathPatternMatches, routeNamed, routes, routeSecrets, routeUrl, type RouteDef } from './routes.ts';
import { SECRET_NAMES } from './secrets.ts';

/** A route's path with every `{parameter}` filled in. */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, 'AbC-123');
const route = (method: RouteDef['method'], path: string): RouteDef => ({ ...routes.getMe, method, path });

describe('apiPathPatterns', () => {
  it('covers every route of the table by exactly one pattern, and each pattern covers a route', () => {
    const patterns = apiPathPatterns();
    for (const r of Object.values(routes) as RouteDef[]) {
      for (const path of [r.path, concrete(r.path)]) {
        expect(patterns.filter((p) => pathPatternMatches(p, path)), path).toHaveLength(1);
      }
    }
    for (const p of patterns) expect(Object.values(routes).some((r) => pathPatternMatches(p, r.path)), p).toBe(true);
    expect(new Set(patterns).size).toBe(patterns.length);
  });

  it('is /<segment>/* below a first segment, /<segment> for the segment alone, in the order the table first names them', () => {
    const table = {
      a: route('GET', '/api/auth/me'),
      b: route('POST', '/contact'),
      c: route('DELETE', '/things/{id}'),
      d: route('GET', '/api/live/{code}'),
      e: route('GET', '/things'),
    };
    expect(apiPathPatterns(table)).toEqual(['/api/*', '/contact', '/things/*', '/things']);
    expect(() => apiPathPatterns({ x: route('GET', '/{id}/x') })).toThrow(/fixed segment/);
  });

  it('tells API paths from the SPA as CloudFront does', () => {
    const table = { a: route('GET', '/api/auth/me'), b: route('POST', '/contact') };
    expect(isApiPath('/api/anything/at/all', table)).toBe(true);
    expect(isApiPath('/contact', table)).toBe(true);
    // The bare segment of a `/*` pattern, and a longer segment, are the SPA's.
    for (const spa of ['/api', '/apis', '/contact/us', '/contacts', '/', '/help']) expect(isApiPath(spa, table), spa).toBe(false);
  });
});

describe('pathPatternMatches', () => {
  it('reads * as any characters, / included, and everything else literally', () => {
    expect(pathPatternMatches('/api/live/*', '/api/live/x/viewers')).toBe(true);
    expect(pathPatternMatches('/api/live/*/viewers', '/api/live/x/viewers')).toBe(true);
    expect(pathPatternMatches('/a.b', '/aXb')).toBe(false);
    expect(pathPatternMatches('/a.b', '/a.b')).toBe(true);
  });
});

describe('route paths by name', () => {
  it('fills path parameters (encoded) and the query string, leaving out empty values', () => {
    expect(fillPath('/api/transcriptions-autosave/{id}', { id: 'a b/c' })).toBe('/api/transcriptions-autosave/a%20b%2Fc');
    expect(fillPath('/api/transcriptions', undefined, { month: '2025-01', search: '', completed: true })).toBe('/api/transcriptions?month=2025-01&completed=true');
    expect(() => fillPath('/transcriptions/{id}', {})).toThrow(/id/);
  });

  it('gives a route its path by name, and a request its route name back', () => {
    for (const [name, def] of Object.entries(routes) as [keyof typeof routes, RouteDef][]) {
      const params = Object.fromEntries([...def.path.matchAll(/\{(\w+)\}/g)].map(([, key]) => [key, `x-${key}`]));
      const url = routeUrl(name, params);
      expect(url.includes('{')).toBe(false);
      expect(routeNamed(def.method, url), `${def.method} ${url}`).toBe(name);
    }
    expect(routeUrl('register')).toBe(routes.register.path);
    expect(routeNamed('GET', '/api/nothing-here')).toBeUndefined();
    expect(routeNamed('DELETE', routes.register.path)).toBeUndefined();
  });
});

describe('the secrets each route reads', () => {
  const all = Object.entries(routes) as [keyof typeof routes, RouteDef][];
  const readers = (secret: string) => all.filter(([name, def]) => routeSecrets(name, def).includes(secret as never)).map(([name]) => name).sort();

  it('gives every route the origin secret, and the token key to every route that checks or signs a token', () => {
    for (const [name, def] of all) {
      const secrets = routeSecrets(name, def);
      expect(secrets[0], name).toBe('origin');
      expect(secrets, name).toEqual(SECRET_NAMES.filter((s) => secrets.includes(s)));
      if (def.auth === 'user' || def.auth === 'pro' || closedDuringMaintenance(name, def)) expect(secrets, name).toContain('tokenKey');
    }
    // Public reads and the webhook never see a token.
    expect(all.filter(([name, def]) => !routeSecrets(name, def).includes('tokenKey')).map(([name]) => name).sort()).toEqual(['maintenanceMode', 'stripeWebhook', 'viewLiveShare']);
  });

  it('gives the bot check and the Stripe secrets only to the routes whose handlers use them', () => {
    expect(readers('botCheck')).toEqual(['forgotPassword', 'login', 'register']);
    expect(readers('stripeApiKey')).toEqual(['cancelCheckout', 'checkout', 'deleteAccount', 'portal', 'resumeSubscription']);
    expect(readers('stripeWebhookSigning')).toEqual(['stripeWebhook']);
    expect(routeSecrets('stripeWebhook', routes.stripeWebhook)).toEqual(['origin', 'stripeWebhookSigning']);
    expect(routeSecrets('maintenanceMode', routes.maintenanceMode)).toEqual(['origin']);
  });
});
