import * as fs from 'node:fs';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { LIVE_POLL_MS, LIVE_VIEWER_PING_MS, ORIGIN_SECRET_HEADER } from '@app/shared/constants';
import { routes, type RouteDef } from '@app/shared/routes';
import { defineStack } from '../lib/app.ts';
import { LIVE_RATE_ROUTES, OTHER_RATE_LIMIT, pathRegex, RATE_LIMITED_BODY, RATE_WINDOW_SECONDS, ROUTE_RATE_LIMITS } from '../lib/edge.ts';
import { LiveTranscribeStack, STACK_REGION } from '../lib/stack.ts';
import { devStack, GENERIC_ROUTES, genericProdStack, keyOf, noSite, ofType, ROUTES, synthApp, tempDir, type Json } from './template.ts';

/** AWS WAF: the API stage's web ACL (only CloudFront gets through) and CloudFront's (rates per client address); the stack's region. */

/** A room of viewers behind one address (docs/live.md), and the files the viewer page loads. */
const ROOM = 600;
const PAGE_FILES = 20;

/** Whether a request (method, path) matches a web ACL statement, evaluated as AWS WAF does for the statements used here. */
function matches(statement: Json, request: { method: string; path: string }): boolean {
  if (statement.AndStatement) return (statement.AndStatement.Statements as Json[]).every((s) => matches(s, request));
  if (statement.OrStatement) return (statement.OrStatement.Statements as Json[]).some((s) => matches(s, request));
  if (statement.NotStatement) return !matches(statement.NotStatement.Statement, request);
  if (statement.ByteMatchStatement?.FieldToMatch.Method) {
    expect(statement.ByteMatchStatement).toMatchObject({ PositionalConstraint: 'EXACTLY', TextTransformations: [{ Priority: 0, Type: 'NONE' }] });
    return request.method === statement.ByteMatchStatement.SearchString;
  }
  if (statement.RegexMatchStatement?.FieldToMatch.UriPath) {
    expect(statement.RegexMatchStatement.TextTransformations).toEqual([{ Priority: 0, Type: 'NONE' }]);
    return new RegExp(statement.RegexMatchStatement.RegexString as string).test(request.path);
  }
  throw new Error(`statement not understood here: ${JSON.stringify(statement)}`);
}

/** A request for a route, each `{parameter}` filled in. */
const requestOf = (r: RouteDef) => ({ method: r.method, path: r.path.replace(/\{[^}]+\}/g, 'AbCdEfGhIjKl') });

describe('AWS WAF (dev, full route table)', () => {
  let t: Template;
  let json: Json;
  const acls = () => new Map(ofType(t, 'AWS::WAFv2::WebACL').map(([id, a]) => [a.Properties.Scope as string, { id, ...a.Properties }]));

  beforeAll(() => {
    ({ t, json } = devStack());
  });

  it('has two web ACLs: a regional one on the API stage and a CloudFront one on the distribution', () => {
    expect([...acls().keys()].sort()).toEqual(['CLOUDFRONT', 'REGIONAL']);
    const config = ofType(t, 'AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig;
    expect(config.WebACLId).toEqual({ 'Fn::GetAtt': [acls().get('CLOUDFRONT')!.id, 'Arn'] });
  });

  it('blocks every request at the API stage but those with exactly the origin secret CloudFront sends, in that one header', () => {
    const acl = acls().get('REGIONAL')!;
    expect(acl.DefaultAction).toEqual({ Block: {} });
    expect(acl.Rules).toHaveLength(1);
    const [rule] = acl.Rules as Json[];
    expect(rule.Action).toEqual({ Allow: {} });
    const config = ofType(t, 'AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig;
    const sent = config.Origins.find((o: Json) => o.CustomOriginConfig).OriginCustomHeaders as Json[];
    expect(sent).toHaveLength(1);
    expect(rule.Statement).toEqual({
      ByteMatchStatement: {
        FieldToMatch: { SingleHeader: { Name: ORIGIN_SECRET_HEADER } },
        PositionalConstraint: 'EXACTLY',
        // The same dynamic reference CloudFront resolves for its header: never the value itself.
        SearchString: sent[0].HeaderValue,
        TextTransformations: [{ Priority: 0, Type: 'NONE' }],
      },
    });
    expect(sent[0].HeaderName).toBe(ORIGIN_SECRET_HEADER);
    expect(JSON.stringify(rule.Statement)).toContain('{{resolve:secretsmanager:');
  });

  it('associates the regional web ACL with the REST API stage, once the stage exists', () => {
    const associations = ofType(t, 'AWS::WAFv2::WebACLAssociation');
    expect(associations).toHaveLength(1);
    const [id, association] = associations[0]!;
    const [apiId] = ofType(t, 'AWS::ApiGateway::RestApi')[0]!;
    const [stageId] = ofType(t, 'AWS::ApiGateway::Stage')[0]!;
    expect(association.Properties.WebACLArn).toEqual({ 'Fn::GetAtt': [acls().get('REGIONAL')!.id, 'Arn'] });
    expect(association.Properties.ResourceArn).toEqual({
      'Fn::Join': ['', ['arn:aws:apigateway:us-east-1::/restapis/', { Ref: apiId }, '/stages/', { Ref: stageId }]],
    });
    expect(json.Resources[id].DependsOn).toContain(stageId);
  });

  it('limits each client address per minute on CloudFront, answering 429 JSON past a limit', () => {
    const acl = acls().get('CLOUDFRONT')!;
    expect(acl.DefaultAction).toEqual({ Allow: {} });
    expect(JSON.parse(acl.CustomResponseBodies[RATE_LIMITED_BODY].Content as string)).toEqual({ error: expect.any(String), code: 'rate_limited' });
    expect(acl.CustomResponseBodies[RATE_LIMITED_BODY].ContentType).toBe('APPLICATION_JSON');
    const rules = acl.Rules as Json[];
    expect(rules.map((r) => r.Name)).toEqual(['RateAll', ...Object.keys(ROUTE_RATE_LIMITS).map((n) => `Rate-${n}`)]);
    expect(new Set(rules.map((r) => r.Priority)).size).toBe(rules.length);
    for (const rule of rules) {
      expect(rule.Action, rule.Name).toEqual({ Block: { CustomResponse: { ResponseCode: 429, CustomResponseBodyKey: RATE_LIMITED_BODY } } });
      expect(rule.Statement.RateBasedStatement, rule.Name).toMatchObject({ AggregateKeyType: 'IP', EvaluationWindowSec: RATE_WINDOW_SECONDS });
      expect(rule.VisibilityConfig, rule.Name).toMatchObject({ CloudWatchMetricsEnabled: true, SampledRequestsEnabled: true });
    }
    expect(rules[0].Statement.RateBasedStatement.Limit).toBe(OTHER_RATE_LIMIT);
    for (const [name, limit] of Object.entries(ROUTE_RATE_LIMITS)) {
      expect(rules.find((r) => r.Name === `Rate-${name}`).Statement.RateBasedStatement.Limit, name).toBe(limit);
    }
  });

  it("scopes each route's rule to exactly that route of the table, and the rule on every request to all but the live routes", () => {
    const rules = acls().get('CLOUDFRONT')!.Rules as Json[];
    const scopeOf = (name: string) => rules.find((r) => r.Name === name).Statement.RateBasedStatement.ScopeDownStatement as Json;
    for (const name of Object.keys(ROUTE_RATE_LIMITS)) {
      const hit = ROUTES.filter(([, r]) => matches(scopeOf(`Rate-${name}`), requestOf(r))).map(([n]) => n);
      expect(hit, name).toEqual([name]);
      // A trailing slash is the same route; the path with a segment more or another method is not.
      const r = routes[name as keyof typeof ROUTE_RATE_LIMITS];
      expect(matches(scopeOf(`Rate-${name}`), { ...requestOf(r), path: `${requestOf(r).path}/` }), name).toBe(true);
      expect(matches(scopeOf(`Rate-${name}`), { ...requestOf(r), path: `${requestOf(r).path}/x` }), name).toBe(false);
      expect(matches(scopeOf(`Rate-${name}`), { ...requestOf(r), method: r.method === 'GET' ? 'POST' : 'GET' }), name).toBe(false);
    }
    const everyOther = scopeOf('RateAll');
    for (const [name, r] of ROUTES) {
      expect(matches(everyOther, requestOf(r)), name).toBe(!(LIVE_RATE_ROUTES as readonly string[]).includes(name));
    }
    for (const file of ['/', '/index.html', '/assets/index-abc.js', '/live/AbCdEfGhIjKl']) expect(matches(everyOther, { method: 'GET', path: file }), file).toBe(true);
    // The route's path is the table's, written as a regular expression: a moved path follows.
    expect(pathRegex('/api/live/{code}/viewers')).toBe('^/api/live/[^/]+/viewers/?$');
    expect(pathRegex('/api/a.b')).toBe('^/api/a\\.b/?$');
  });

  it("lets a room of viewers behind one address follow a talk, and sits the tighter limits below the everything-else one", () => {
    const perWindow = (everyMs: number) => (ROOM * RATE_WINDOW_SECONDS * 1000) / everyMs;
    expect(ROUTE_RATE_LIMITS.viewLiveShare).toBeGreaterThan(perWindow(LIVE_POLL_MS));
    // The pings' only per-address limit (the handler keeps none): a room fits, twice over at most.
    expect(ROUTE_RATE_LIMITS.recordLiveViewer).toBeGreaterThan(perWindow(LIVE_VIEWER_PING_MS));
    expect(ROUTE_RATE_LIMITS.recordLiveViewer).toBeLessThanOrEqual(2 * perWindow(LIVE_VIEWER_PING_MS));
    expect(OTHER_RATE_LIMIT).toBeGreaterThanOrEqual(ROOM * PAGE_FILES);
    for (const name of ['login', 'register', 'forgotPassword', 'contact'] as const) {
      expect(ROUTE_RATE_LIMITS[name], name).toBeLessThan(OTHER_RATE_LIMIT);
      // AWS WAF's smallest rate limit.
      expect(ROUTE_RATE_LIMITS[name], name).toBeGreaterThanOrEqual(10);
    }
    expect(ROUTE_RATE_LIMITS.contact).toBeLessThan(ROUTE_RATE_LIMITS.login);
    expect(ROUTE_RATE_LIMITS.forgotPassword).toBeLessThan(ROUTE_RATE_LIMITS.register);
  });
});

describe('AWS WAF from any route table (prod, generic routes)', () => {
  it('has rules only for the routes of its table, and the rule on every request without a scope-down when no live route exists', () => {
    const { t } = genericProdStack();
    const acl = ofType(t, 'AWS::WAFv2::WebACL').find(([, a]) => a.Properties.Scope === 'CLOUDFRONT')![1].Properties;
    expect(Object.keys(GENERIC_ROUTES).some((n) => n in ROUTE_RATE_LIMITS)).toBe(false);
    expect((acl.Rules as Json[]).map((r) => r.Name)).toEqual(['RateAll']);
    expect(acl.Rules[0].Statement.RateBasedStatement.ScopeDownStatement).toBeUndefined();
    expect(ofType(t, 'AWS::WAFv2::WebACLAssociation')).toHaveLength(1);
    expect(keyOf(GENERIC_ROUTES.hook!)).toBe('POST /stripe/webhook');
  });
});

describe('the origin secret after a rotation (context originSecretVersion)', () => {
  it('names the version in CloudFront\'s header and the web ACL\'s rule alike, so one deploy updates both', () => {
    const t = synthApp({ routes: GENERIC_ROUTES, siteDir: noSite(), originSecretVersion: 'v-0123456789abcdef' }).template;
    const config = ofType(t, 'AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig;
    const sent = config.Origins.find((o: Json) => o.CustomOriginConfig).OriginCustomHeaders[0].HeaderValue as Json;
    const rule = ofType(t, 'AWS::WAFv2::WebACL').find(([, a]) => a.Properties.Scope === 'REGIONAL')![1].Properties.Rules[0];
    expect(rule.Statement.ByteMatchStatement.SearchString).toEqual(sent);
    const [originId] = ofType(t, 'AWS::SecretsManager::Secret').find(([id]) => id.startsWith('OriginSecret'))!;
    // secret-id:SecretString:json-key:version-stage:version-id
    expect(sent).toEqual({ 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: originId }, ':SecretString:::v-0123456789abcdef}}']] });
  });
});

describe("the stack's region", () => {
  it('is us-east-1, where CloudFront web ACLs and CloudFront metrics live; no other is accepted', () => {
    expect(STACK_REGION).toBe('us-east-1');
    const { json } = devStack();
    expect(JSON.stringify(json)).toContain(':us-east-1:');
    expect(JSON.stringify(json)).not.toContain('"Ref":"AWS::Region"');
    expect(() => new LiveTranscribeStack(undefined as never, 'Elsewhere', { stage: 'dev', mailDomain: 'example.com', siteDir: noSite(), env: { region: 'eu-west-1' } })).toThrow(
      /deploys to us-east-1 only/,
    );
  });

  it('is what the CDK app (cdk synth) gives the stack, with the account left to the CLI: no credentials needed', () => {
    const outdir = tempDir('cdk-app-');
    // The stack bin/app.ts defines, without its functions' bundles. The CLI sets these variables
    // when it finds credentials; the stack must not take its account or region from them.
    const before = { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION };
    Object.assign(process.env, { CDK_DEFAULT_ACCOUNT: '123456789012', CDK_DEFAULT_REGION: 'eu-west-1' });
    try {
      const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
      defineStack(app);
      app.synth();
    } finally {
      for (const [name, value] of [['CDK_DEFAULT_ACCOUNT', before.account], ['CDK_DEFAULT_REGION', before.region]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    const manifest = JSON.parse(fs.readFileSync(path.join(outdir, 'manifest.json'), 'utf8')) as { artifacts: Record<string, { type: string; environment?: string }> };
    const stacks = Object.entries(manifest.artifacts).filter(([, a]) => a.type === 'aws:cloudformation:stack');
    expect(stacks.map(([name, a]) => [name, a.environment])).toEqual([['LiveTranscribe-dev', 'aws://unknown-account/us-east-1']]);
  });
});
