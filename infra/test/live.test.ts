import { beforeAll, describe, expect, it } from 'vitest';
import { LIVE_CACHE_SECONDS, LIVE_HOLD_SECONDS } from '@app/shared/constants';
import { HOLD_MARGIN_SECONDS } from '../lib/api.ts';
import { apiPathPatterns, pathPatternMatches, routes } from '@app/shared/routes';
import { apiViewerRequests, cachedApiBehaviors, LIVE_VIEW_REQUEST_CODE, VIEWER_ADDRESS_CODE } from '../lib/edge-functions.ts';
import { devStack, ofType, ROUTES, type Json } from './template.ts';

/** The live caption view through CloudFront: cached LIVE_CACHE_SECONDS by path and `after` only; every other live route uncached. */

const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

/** The behaviour CloudFront picks for a path: the first whose pattern matches, in the listed order. */
const behaviorFor = (config: Json, path: string): Json => config.CacheBehaviors.find((b: Json) => pathPatternMatches(b.PathPattern, path));

describe('live caption view on CloudFront', () => {
  let config: Json;
  let policies: Map<string, Json>;
  let functions: Map<string, Json>;

  beforeAll(() => {
    const { t } = devStack();
    config = ofType(t, 'AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig;
    policies = new Map(ofType(t, 'AWS::CloudFront::CachePolicy').map(([id, r]) => [id, r.Properties.CachePolicyConfig]));
    functions = new Map(ofType(t, 'AWS::CloudFront::Function').map(([id, r]) => [id, r.Properties]));
  });

  it('waits for a held view longer than the view function runs (CloudFront\'s origin response timeout, 30 s unless set)', () => {
    const b = behaviorFor(config, '/api/live/AbCdEfGhIjKl');
    const origin = config.Origins.find((o: Json) => o.Id === b.TargetOriginId);
    expect(origin.CustomOriginConfig.OriginReadTimeout ?? 30).toBeGreaterThan(LIVE_HOLD_SECONDS + HOLD_MARGIN_SECONDS);
  });

  it('derives the cached pattern from the route table: the view only, with its owner-only count and caption destinations listed before it', () => {
    expect(routes.viewLiveShare.cache).toEqual({ seconds: LIVE_CACHE_SECONDS, query: ['after'], holdSeconds: LIVE_HOLD_SECONDS });
    expect(cachedApiBehaviors()).toEqual({
      cached: [{ name: 'viewLiveShare', pattern: '/api/live/*', cache: routes.viewLiveShare.cache }],
      uncached: ['/api/live/*/viewers', '/api/live/*/destinations', '/api/live/*/destinations/*'],
    });
    const order = config.CacheBehaviors.map((b: Json) => b.PathPattern as string);
    expect(order.indexOf('/api/live/*/viewers')).toBeLessThan(order.indexOf('/api/live/*'));
    expect(order.indexOf('/api/live/*')).toBeLessThan(order.indexOf('/api/*'));
  });

  it(`caches GET /api/live/{code} ${LIVE_CACHE_SECONDS} s, keyed by the path and only the after parameter (no cookies, no headers); a no-store answer is not kept`, () => {
    const b = behaviorFor(config, '/api/live/AbCdEfGhIjKl');
    expect(b.PathPattern).toBe('/api/live/*');
    const policy = policies.get(b.CachePolicyId.Ref);
    expect(policy).toMatchObject({
      // The origin's no-store (a held request that found nothing new) is honoured only above a minimum TTL of 0.
      MinTTL: 0,
      DefaultTTL: LIVE_CACHE_SECONDS,
      MaxTTL: LIVE_CACHE_SECONDS,
      ParametersInCacheKeyAndForwardedToOrigin: {
        QueryStringsConfig: { QueryStringBehavior: 'whitelist', QueryStrings: ['after'] },
        HeadersConfig: { HeaderBehavior: 'none' },
        CookiesConfig: { CookieBehavior: 'none' },
        EnableAcceptEncodingGzip: true,
      },
    });
    // Same origin (with its secret header) and headers as the other API paths (its viewer-request function: below); stopping a share (DELETE) passes through.
    const api = behaviorFor(config, '/api/auth/me');
    expect(b).toMatchObject({
      TargetOriginId: api.TargetOriginId,
      OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
      ResponseHeadersPolicyId: api.ResponseHeadersPolicyId,
      AllowedMethods: expect.arrayContaining(['GET', 'HEAD', 'DELETE', 'POST']),
      CachedMethods: ['GET', 'HEAD'],
      Compress: true,
    });
    const origin = config.Origins.find((o: Json) => o.Id === b.TargetOriginId);
    expect(origin.OriginCustomHeaders.map((h: Json) => h.HeaderName)).toEqual(['x-origin-verify']);
  });

  it('runs the offset check on the live view\'s viewer requests and the plain viewer-address function on every other API behaviour, as the local server does', () => {
    const code = (b: Json) => {
      expect(b.FunctionAssociations, b.PathPattern).toEqual([{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [expect.any(String), 'FunctionARN'] } }]);
      const fn = functions.get(b.FunctionAssociations[0].FunctionARN['Fn::GetAtt'][0])!;
      expect(fn.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
      expect(fn.AutoPublish).toBe(true);
      return fn.FunctionCode as string;
    };
    expect(code(behaviorFor(config, '/api/live/AbCdEfGhIjKl'))).toBe(LIVE_VIEW_REQUEST_CODE);
    const others = config.CacheBehaviors.filter((b: Json) => b.PathPattern !== '/api/live/*');
    expect(others.length).toBeGreaterThan(1);
    for (const b of others) expect(code(b), b.PathPattern).toBe(VIEWER_ADDRESS_CODE);
    // The same behaviours, in the same order, with the same functions as the local server runs (apiViewerRequests).
    expect(config.CacheBehaviors.map((b: Json) => ({ pattern: b.PathPattern, code: code(b) }))).toEqual(apiViewerRequests());
  });

  it('sends every other route uncached, the live ones included (creating, the viewer pings, the owner count)', () => {
    for (const [name, r] of ROUTES) {
      const path = r.path.replace(/\{[^}]+\}/g, 'AbCdEfGhIjKl');
      const b = behaviorFor(config, path);
      expect(b, path).toBeDefined();
      if (name === 'viewLiveShare' || b.CachePolicyId === CACHING_DISABLED) continue;
      // Only a write shares the cached view's behaviour, and CloudFront caches GET and HEAD only.
      expect(r.method, name).not.toBe('GET');
      expect(b.CachedMethods, name).toEqual(['GET', 'HEAD']);
    }
    expect(behaviorFor(config, '/api/live/AbCdEfGhIjKl/viewers').CachePolicyId).toBe(CACHING_DISABLED);
    expect(behaviorFor(config, '/api/live').PathPattern).toBe('/api/*');
    expect(apiPathPatterns()).toContain('/api/*');
  });
});
