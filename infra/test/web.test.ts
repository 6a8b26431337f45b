import * as fs from 'node:fs';
import * as path from 'node:path';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { webSourceIndexHtml } from '../lib/paths.ts';
import { buildCsp, CSP_MAX_LENGTH, cspDirectives, inlineScriptHashes, parseOrigins, PERMISSIONS_POLICY, RECAPTCHA, securityHeaders } from '../lib/security-headers.ts';
import { apiPathPatterns, pathPatternMatches, routes } from '@app/shared/routes';
import { LIVE_OFFSET_MESSAGE } from '@app/shared/schemas/live';
import { awsSecretName, SECRET_NAMES } from '@app/shared/secrets';
import { secretConstructId } from '../lib/secrets.ts';
import { API_STAGE_NAME } from '../lib/api.ts';
import { cachedApiBehaviors, LIVE_VIEW_REQUEST_CODE, SPA_REWRITE_CODE, VIEWER_ADDRESS_CODE, type EdgeValue } from '../lib/edge-functions.ts';
import { ACCESS_LOG_DAYS } from '../lib/web.ts';
import { cspOf, devStack, GENERIC_ROUTES, genericProdStack, noSite, ofType, PROD_ANALYTICS, PROD_INLINE_SCRIPT, prodStack, ROUTES, sha256Source, synth, type Json } from './template.ts';

/** The site: S3 and CloudFront, the API paths it forwards, its CloudFront Functions, domain, deployment and security headers. */

/** Managed policy ids (AWS-published, stable). */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';
const MANAGED_SECURITY_HEADERS = '67f7725c-6f97-4210-82d7-5512b31e9d03';

describe('Site on CloudFront (dev, full route table)', () => {
  let t: Template;
  let json: Json;

  beforeAll(() => {
    ({ t, json } = devStack());
  });

  it('serves the SPA from a private bucket through CloudFront with origin access control', () => {
    t.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
    });
    t.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
    t.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    const config = ofType(t, 'AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig;
    expect(config.DefaultRootObject).toBe('index.html');
    expect(config.CustomErrorResponses).toBeUndefined(); // would turn API 404s into index.html
    const s3Origin = config.Origins.find((o: Json) => o.S3OriginConfig);
    expect(s3Origin.OriginAccessControlId).toBeDefined();
    expect(config.DefaultCacheBehavior.TargetOriginId).toBe(s3Origin.Id);
    expect(config.DefaultCacheBehavior.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: expect.anything() },
    ]);
  });

  it("forwards the route table's path patterns to the REST API's stage, uncached, all methods", () => {
    const config = ofType(t, 'AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig;
    const apiId = ofType(t, 'AWS::ApiGateway::RestApi')[0]![0];
    const apiOrigin = config.Origins.find((o: Json) => o.CustomOriginConfig);
    expect(apiOrigin.DomainName).toEqual({ 'Fn::Join': ['.', [{ Ref: apiId }, 'execute-api.us-east-1', { Ref: 'AWS::URLSuffix' }]] });
    expect(apiOrigin.CustomOriginConfig.OriginProtocolPolicy).toBe('https-only');
    // The stage is the first segment of every execute-api path: `/api/auth/login` reaches `/v1/api/auth/login`.
    expect(apiOrigin.OriginPath).toBe(`/${API_STAGE_NAME}`);
    expect(ofType(t, 'AWS::ApiGateway::Stage')[0]![1].Properties.StageName).toBe(API_STAGE_NAME);
    // The cached live view has its own behaviour (live.test.ts); every other one is uncached.
    const { cached, uncached } = cachedApiBehaviors();
    const behaviors = config.CacheBehaviors.filter((b: Json) => !cached.some((c) => c.pattern === b.PathPattern));
    const patterns = behaviors.map((b: Json) => b.PathPattern as string);
    expect(patterns.sort()).toEqual([...apiPathPatterns(), ...uncached].sort());
    for (const b of behaviors) {
      expect(b).toMatchObject({
        TargetOriginId: apiOrigin.Id,
        CachePolicyId: CACHING_DISABLED,
        OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
        AllowedMethods: expect.arrayContaining(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE']),
      });
      // The visitor's address reaches the handlers (per-client rate limits behind CloudFront).
      expect(b.FunctionAssociations).toEqual([{ EventType: 'viewer-request', FunctionARN: expect.anything() }]);
    }
    // Every route of the table is reachable through exactly one of the forwarded patterns, and each of them serves a route.
    const forwarded = apiPathPatterns();
    for (const [, r] of ROUTES) expect(forwarded.filter((p) => pathPatternMatches(p, r.path)), r.path).toHaveLength(1);
    for (const p of forwarded) expect(ROUTES.some(([, r]) => pathPatternMatches(p, r.path)), p).toBe(true);
  });

  it('carries the session cookie both ways: every API behaviour forwards the Cookie header to the API and is never cached; the cached live view keys on no cookie and sets none', () => {
    const config = ofType(t, 'AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig;
    const apiOrigin = config.Origins.find((o: Json) => o.CustomOriginConfig);
    const apiBehaviors = config.CacheBehaviors.filter((b: Json) => b.TargetOriginId === apiOrigin.Id);
    expect(apiBehaviors.length).toBe(config.CacheBehaviors.length);
    // AWS's managed AllViewerExceptHostHeader sends the origin every viewer header, cookie and query
    // string (not Host: API Gateway needs its own); CloudFront passes the origin's Set-Cookie back
    // as it is on a behaviour that caches nothing.
    for (const b of apiBehaviors) expect(b.OriginRequestPolicyId, b.PathPattern).toBe(ALL_VIEWER_EXCEPT_HOST_HEADER);
    const { cached } = cachedApiBehaviors();
    for (const b of apiBehaviors.filter((b: Json) => !cached.some((c) => c.pattern === b.PathPattern))) expect(b.CachePolicyId, b.PathPattern).toBe(CACHING_DISABLED);
    // A cached answer is everyone's: its key holds no cookie, and its route has no session to set.
    for (const c of cached) {
      expect(routes[c.name as keyof typeof routes].auth).toBe('none');
      const b = apiBehaviors.find((x: Json) => x.PathPattern === c.pattern);
      const policy = t.toJSON().Resources[b.CachePolicyId.Ref].Properties.CachePolicyConfig;
      expect(policy.ParametersInCacheKeyAndForwardedToOrigin.CookiesConfig).toEqual({ CookieBehavior: 'none' });
    }
    // The SPA and the API answer on one distribution, one domain: the host-only cookie the API sets goes with the page's own requests.
    expect(config.DefaultCacheBehavior.TargetOriginId).not.toBe(apiOrigin.Id);
  });

  it('logs every CloudFront request and every request to the site bucket into a private log bucket, kept 90 days', () => {
    const buckets = ofType(t, 'AWS::S3::Bucket');
    expect(buckets).toHaveLength(2);
    const [logsId, logs] = buckets.find(([id]) => id.startsWith('WebAccessLogs'))!;
    const [, site] = buckets.find(([id]) => id.startsWith('WebBucket'))!;
    expect(logs.Properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      // CloudFront's standard logs arrive with an object ACL.
      OwnershipControls: { Rules: [{ ObjectOwnership: 'ObjectWriter' }] },
      LifecycleConfiguration: { Rules: [{ ExpirationInDays: ACCESS_LOG_DAYS, Status: 'Enabled' }] },
    });
    expect(site.Properties.LoggingConfiguration).toEqual({ DestinationBucketName: { Ref: logsId }, LogFilePrefix: 's3/' });
    const config = ofType(t, 'AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig;
    expect(config.Logging).toEqual({ Bucket: { 'Fn::GetAtt': [logsId, 'RegionalDomainName'] }, Prefix: 'cloudfront/' });
    const policy = ofType(t, 'AWS::S3::BucketPolicy').find(([, p]) => JSON.stringify(p.Properties.Bucket) === JSON.stringify({ Ref: logsId }))![1];
    expect(policy.Properties.PolicyDocument.Statement).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        expect.objectContaining({ Effect: 'Allow', Principal: { Service: 'logging.s3.amazonaws.com' }, Action: 's3:PutObject' }),
      ]),
    );
    expect(json.Outputs.AccessLogBucketName.Value).toEqual({ Ref: logsId });
  });

  it('exports the site URL, API URL, table name, secret names, alarm topic and access log', () => {
    const outputs = Object.keys(json.Outputs as Record<string, unknown>);
    expect(outputs).toEqual(expect.arrayContaining(['SiteUrl', 'ApiUrl', 'TableName', 'AlarmTopicArn', 'ApiAccessLogGroup']));
    for (const name of SECRET_NAMES) expect(json.Outputs[`${secretConstructId(name)}Name`].Value).toBe(awsSecretName('dev', name));
    const distId = ofType(t, 'AWS::CloudFront::Distribution')[0]![0];
    expect(json.Outputs.SiteUrl.Value).toEqual({ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distId, 'DomainName'] }]] });
  });

  it('sends one custom security-headers policy (not the managed one) on the SPA and every API behaviour', () => {
    const [policyId] = ofType(t, 'AWS::CloudFront::ResponseHeadersPolicy')[0]!;
    const config = ofType(t, 'AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig;
    expect(config.DefaultCacheBehavior.ResponseHeadersPolicyId).toEqual({ Ref: policyId });
    const { cached, uncached } = cachedApiBehaviors();
    expect(config.CacheBehaviors).toHaveLength(apiPathPatterns().length + cached.length + uncached.length);
    for (const b of config.CacheBehaviors) expect(b.ResponseHeadersPolicyId, b.PathPattern).toEqual({ Ref: policyId });
    expect(JSON.stringify(json)).not.toContain(MANAGED_SECURITY_HEADERS);
  });

  it('sends HSTS (2 years, subdomains, preload), nosniff, strict-origin-when-cross-origin, DENY and a permissions policy allowing the microphone, on-device speech recognition and the Translator to this origin only', () => {
    const config = ofType(t, 'AWS::CloudFront::ResponseHeadersPolicy')[0]![1].Properties.ResponseHeadersPolicyConfig;
    expect(config.SecurityHeadersConfig).toMatchObject({
      StrictTransportSecurity: { AccessControlMaxAgeSec: 63072000, IncludeSubdomains: true, Preload: true, Override: true },
      ContentTypeOptions: { Override: true },
      ReferrerPolicy: { ReferrerPolicy: 'strict-origin-when-cross-origin', Override: true },
      FrameOptions: { FrameOption: 'DENY', Override: true },
      ContentSecurityPolicy: { Override: true },
    });
    expect(config.CustomHeadersConfig.Items).toEqual([{ Header: 'Permissions-Policy', Value: PERMISSIONS_POLICY, Override: true }]);
    const features = new Map(PERMISSIONS_POLICY.split(',').map((f) => f.trim().split('=') as [string, string]));
    expect([...features].filter(([, allow]) => allow !== '()')).toEqual([
      ['microphone', '(self)'],
      ['on-device-speech-recognition', '(self)'],
      ['translator', '(self)'],
    ]);
    expect(features.get('camera')).toBe('()');
  });

  it('sends exactly the headers the local server sends (securityHeaders), so browser tests run under them', () => {
    const config = ofType(t, 'AWS::CloudFront::ResponseHeadersPolicy')[0]![1].Properties.ResponseHeadersPolicyConfig;
    const sec = config.SecurityHeadersConfig;
    const hsts = sec.StrictTransportSecurity;
    const sent: Record<string, string> = {
      'content-security-policy': sec.ContentSecurityPolicy.ContentSecurityPolicy,
      'strict-transport-security': `max-age=${hsts.AccessControlMaxAgeSec}${hsts.IncludeSubdomains ? '; includeSubDomains' : ''}${hsts.Preload ? '; preload' : ''}`,
      'x-content-type-options': 'nosniff',
      'referrer-policy': sec.ReferrerPolicy.ReferrerPolicy,
      'x-frame-options': sec.FrameOptions.FrameOption,
      ...Object.fromEntries(config.CustomHeadersConfig.Items.map((h: Json) => [h.Header.toLowerCase(), h.Value])),
    };
    expect(sent).toEqual(securityHeaders(sent['content-security-policy']!));
    expect(Object.keys(sec).sort()).toEqual(['ContentSecurityPolicy', 'ContentTypeOptions', 'FrameOptions', 'ReferrerPolicy', 'StrictTransportSecurity']);
  });

  it('sends a CSP: self, the bot check, Stripe checkout as a form target, nothing else by default', () => {
    const csp = cspOf(t);
    const hashes = inlineScriptHashes(fs.readFileSync(webSourceIndexHtml, 'utf8'));
    expect([...csp.keys()]).toEqual([
      'default-src', 'script-src', 'connect-src', 'frame-src', 'img-src', 'style-src', 'font-src', 'manifest-src',
      'worker-src', 'media-src', 'form-action', 'object-src', 'base-uri', 'frame-ancestors', 'upgrade-insecure-requests',
    ]);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'", ...hashes, 'https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/']);
    expect(csp.get('connect-src')).toEqual(["'self'", 'https://www.google.com/recaptcha/']);
    expect(csp.get('frame-src')).toEqual([...RECAPTCHA.frame]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    for (const d of ['font-src', 'manifest-src', 'worker-src']) expect(csp.get(d), d).toEqual(["'self'"]);
    expect(csp.get('media-src')).toEqual(["'self'", 'blob:']);
    expect(csp.get('form-action')).toEqual(["'self'", 'https://checkout.stripe.com']);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('upgrade-insecure-requests')).toEqual([]);
    // Never a blanket source.
    for (const [d, sources] of csp) {
      for (const bad of ['*', "'unsafe-eval'", 'http:', 'https:']) expect(sources, d).not.toContain(bad);
      if (d !== 'style-src') expect(sources, d).not.toContain("'unsafe-inline'");
    }
  });
});

describe('Site on CloudFront (prod, generic routes, built site, custom domain)', () => {
  let t: Template;
  let outdir: string;

  beforeAll(() => {
    ({ t, outdir } = genericProdStack());
  });

  it('publishes the built assets without their source maps', () => {
    const assets = ofType(t, 'Custom::CDKBucketDeployment').find(([, d]) => d.Properties.DestinationBucketKeyPrefix === 'assets/')!;
    const [zip] = assets[1].Properties.SourceObjectKeys as string[];
    const staged = fs.readdirSync(path.join(outdir, `asset.${zip!.replace(/\.zip$/, '')}`));
    expect(staged).toEqual(['index-abc.js']);
  });

  it('uses the custom domain for the site and APP_URL, and the mail domain for MAIL_FROM', () => {
    t.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({ Aliases: ['app.example.org'] }),
    });
    t.hasOutput('SiteUrl', { Value: 'https://app.example.org' });
    t.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'mail.example.org' });
    t.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ APP_URL: 'https://app.example.org', MAIL_FROM: 'Live Transcribe <no-reply@mail.example.org>' }) },
    });
  });

  it('forwards the paths of its own route table, and nothing else', () => {
    const config = ofType(t, 'AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig;
    const patterns = config.CacheBehaviors.map((b: Json) => b.PathPattern as string);
    expect(patterns).toEqual(apiPathPatterns(GENERIC_ROUTES));
    expect(patterns.sort()).toEqual(['/stripe/*', '/transcriptions/*']);
  });

  it('deploys a built site: hashed assets cached for a year, the rest revalidated, then invalidates', () => {
    const deployments = ofType(t, 'Custom::CDKBucketDeployment');
    expect(deployments).toHaveLength(2);
    const props = deployments.map(([, d]) => d.Properties);
    expect(props).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ DestinationBucketKeyPrefix: 'assets/', SystemMetadata: { 'cache-control': 'public,max-age=31536000,immutable' } }),
        expect.objectContaining({ SystemMetadata: { 'cache-control': 'no-cache' }, DistributionPaths: ['/*'] }),
      ]),
    );
  });
});

describe('TLS in production', () => {
  it('refuses to synthesize a prod stack without a custom domain and its certificate; the distribution then requires TLS 1.2', () => {
    expect(() => synth({ stage: 'prod', siteDir: noSite() })).toThrow(/domainName and certificateArn/);
    expect(() => synth({ stage: 'prod', siteDir: noSite(), domainName: 'live.example.org' })).toThrow(/TLS below 1.2/);
    const { t } = prodStack();
    t.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({ ViewerCertificate: Match.objectLike({ MinimumProtocolVersion: 'TLSv1.2_2021' }) }),
    });
  });
});

describe('Site on CloudFront (prod, all context)', () => {
  let t: Template;
  const inline = PROD_INLINE_SCRIPT;
  const analytics = PROD_ANALYTICS;

  beforeAll(() => {
    ({ t } = prodStack());
  });

  it('allows the configured analytics and survey origins, and the built page\'s inline script by hash', () => {
    const csp = cspOf(t);
    expect(csp.get('script-src')).toEqual(["'self'", sha256Source(inline), ...RECAPTCHA.script, ...analytics]);
    expect(csp.get('connect-src')).toEqual(["'self'", ...RECAPTCHA.connect, ...analytics]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'blob:', ...analytics]);
    expect(csp.get('frame-src')).toEqual([...RECAPTCHA.frame, 'https://forms.example.net']);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  });
});

describe('SPA rewrite (CloudFront Function)', () => {
  const rewrite = new Function(`${SPA_REWRITE_CODE}; return handler;`)() as (e: { request: { uri: string } }) => { uri: string };
  const uriOf = (uri: string) => rewrite({ request: { uri } }).uri;

  it('sends client-side routes to /index.html and leaves files alone', () => {
    for (const u of ['/', '/login', '/reset-password/abc123', '/transcricoes', '/v1.2/page']) expect(uriOf(u), u).toBe('/index.html');
    for (const u of ['/index.html', '/assets/index-3f2a.js', '/favicon.ico', '/locales/pt.json']) expect(uriOf(u), u).toBe(u);
  });
});

describe('viewer address (CloudFront Function on the API paths)', () => {
  it('overwrites x-viewer-address with the viewer IP', () => {
    const fn = new Function(`${VIEWER_ADDRESS_CODE}; return handler;`)() as (e: unknown) => { headers: Record<string, { value: string }> };
    const out = fn({ viewer: { ip: '203.0.113.9' }, request: { headers: { 'x-viewer-address': { value: '1.1.1.1' } } } });
    expect(out.headers['x-viewer-address']).toEqual({ value: '203.0.113.9' });
  });
});

describe('live view offsets (CloudFront Function on the cached live view)', () => {
  // Evaluated as the runtime does: the source alone, its top-level handler called with the event.
  const fn = new Function(`${LIVE_VIEW_REQUEST_CODE}; return handler;`)() as (e: unknown) => Json;
  const run = (querystring: Record<string, EdgeValue>) =>
    fn({
      version: '1.0',
      context: { eventType: 'viewer-request' },
      viewer: { ip: '203.0.113.9' },
      request: { method: 'GET', uri: '/api/live/AbCdEfGhIjKl', querystring, headers: { 'x-viewer-address': { value: '1.1.1.1' }, host: { value: 'x' } }, cookies: {} },
    });
  const refused = (out: Json) => {
    expect(out).toMatchObject({ statusCode: 400, headers: { 'content-type': { value: expect.stringMatching(/^application\/json/) } }, body: { encoding: 'text' } });
    expect(JSON.parse(out.body.data)).toEqual({ error: LIVE_OFFSET_MESSAGE, code: 'invalid_input' });
    expect(out.uri).toBeUndefined();
  };
  const one = (value: string): Record<string, EdgeValue> => ({ after: { value } });

  it('passes a canonical offset, or none, on to the origin with the viewer IP in x-viewer-address (a sent one overwritten)', () => {
    for (const q of [{}, one('0'), one('7'), one('10'), one('1234567890'), one('9999999999'), { after: { value: '5' }, x: { value: '00' } }] as Record<string, EdgeValue>[]) {
      const out = run(q);
      expect(out.statusCode, JSON.stringify(q)).toBeUndefined();
      expect(out.uri).toBe('/api/live/AbCdEfGhIjKl');
      expect(out.querystring).toEqual(q);
      expect(out.headers).toEqual({ 'x-viewer-address': { value: '203.0.113.9' }, host: { value: 'x' } });
    }
  });

  it("refuses at the edge every other spelling, what the route's schema refuses too", () => {
    const query = routes.viewLiveShare.query;
    for (const value of ['00', '000', '007', '+0', '-0', '-1', '0x0', '0x10', '1e3', '1.0', '1.5', ' 5', '5 ', '%30', '%2B5', '', 'abc', '10000000000', '99999999999', '١٢']) {
      refused(run(one(value)));
      expect(query.safeParse({ after: value }).success, value).toBe(false);
    }
    for (const value of ['0', '42', '9999999999']) expect(query.safeParse({ after: value }).success, value).toBe(true);
  });

  it('refuses a repeated after (CloudFront gives it as multiValue), even with one canonical spelling twice', () => {
    refused(run({ after: { value: '5', multiValue: [{ value: '5' }, { value: '5' }] } }));
    refused(run({ after: { value: '5', multiValue: [{ value: '5' }, { value: '00' }] } }));
    expect(run({ after: { value: '5', multiValue: [{ value: '5' }] } }).statusCode).toBeUndefined();
  });

  it('refuses a parameter the origin would decode to after (a cache key without after)', () => {
    refused(run({ '%61fter': { value: '5' } }));
    refused(run({ 'aft%65r': { value: '00' } }));
    expect(run({ After: { value: '00' }, '%zz': { value: '1' } }).statusCode).toBeUndefined();
  });

  it('fits CloudFront Functions (10 KB of source at most)', () => {
    expect(Buffer.byteLength(LIVE_VIEW_REQUEST_CODE)).toBeLessThan(10_240);
  });
});

describe('Content-Security-Policy builder', () => {
  it('accepts only https origins from context, so a value cannot widen or break the policy', () => {
    expect(parseOrigins(' https://a.example.com, https://*.b.example.com:8443/x/ ,,')).toEqual(['https://a.example.com', 'https://*.b.example.com:8443/x/']);
    expect(parseOrigins(undefined)).toEqual([]);
    for (const bad of ['http://a.example.com', '*', 'https:', "'unsafe-inline'", 'https://a.example.com; script-src *', 'https://a.example.com x', 'data:', 'https://localhost', 'https://a.example.com/?q=1']) {
      expect(() => parseOrigins(bad), bad).toThrow(/not an https origin/);
    }
    expect(() => buildCsp({ surveyOrigin: "https://x.example.com 'unsafe-eval'" })).toThrow(/surveyOrigin/);
  });

  it('refuses a policy longer than CloudFront allows', () => {
    const many = Array.from({ length: 40 }, (_, i) => `https://analytics-${i}.example-analytics-provider.com`);
    expect(() => buildCsp({ analyticsOrigins: many })).toThrow(new RegExp(`${CSP_MAX_LENGTH}`));
    expect(buildCsp({ analyticsOrigins: many.slice(0, 3) }).length).toBeLessThanOrEqual(CSP_MAX_LENGTH);
  });

  it('hashes inline scripts exactly as written, skipping external scripts and data blocks', () => {
    const html = [
      '<script>a()</script>',
      '<script type="module" src="/x.js"></script>',
      '<script type="application/ld+json">{"@type":"WebSite"}</script>',
      '<SCRIPT type="module">\n  b()\n</SCRIPT>',
      '<script>a()</script>',
    ].join('');
    expect(inlineScriptHashes(html)).toEqual([sha256Source('a()'), sha256Source('\n  b()\n')]);
    expect(cspDirectives({ scriptHashes: [sha256Source('a()')] }).find(([d]) => d === 'script-src')![1]).toContain(sha256Source('a()'));
    expect(() => buildCsp({ scriptHashes: ["'unsafe-inline'"] })).toThrow(/sha256/);
  });
});
