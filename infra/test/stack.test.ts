import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN_SECRET_HEADER } from '@app/shared/constants';
import { routes, type RouteDef } from '@app/shared/routes';
import { ACCESS_LOG_FORMAT } from '../lib/api.ts';
import { DEFAULT_RESERVED_CONCURRENCY, reservedConcurrencyFromContext } from '../lib/api-function.ts';
import { ESM_REQUIRE_BANNER } from '../lib/bundling.ts';
import { API_5XX_COUNT, API_5XX_RATE_PERCENT, WEBHOOK_REJECTED_PER_HOUR } from '../lib/monitoring.ts';
import { repoRoot, webSourceIndexHtml } from '../lib/paths.ts';
import { buildCsp, CSP_MAX_LENGTH, cspDirectives, inlineScriptHashes, parseOrigins, PERMISSIONS_POLICY, RECAPTCHA, securityHeaders } from '../lib/security-headers.ts';
import { LiveTranscribeStack, type LiveTranscribeStackProps } from '../lib/stack.ts';
import { DEFAULT_THROTTLE, ROUTE_THROTTLES, routeThrottles } from '../lib/throttling.ts';
import { API_PATH_PATTERNS, SPA_REWRITE_CODE, VIEWER_ADDRESS_CODE } from '../lib/web.ts';

/** CloudFormation JSON is untyped. */
type Json = any;
interface Resource {
  Type: string;
  Properties?: Json;
}

const ROUTES = Object.entries(routes as Record<string, RouteDef>);
const keyOf = (r: RouteDef) => `${r.method} ${r.path}`;
/** Managed policy ids (AWS-published, stable). */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';
const MANAGED_SECURITY_HEADERS = '67f7725c-6f97-4210-82d7-5512b31e9d03';
/** CDK's own helper functions (not route handlers), by logical-id prefix. */
const HELPER_PREFIXES = ['CustomCDKBucketDeployment', 'LogRetention', 'CustomS3AutoDeleteObjects', 'AWS679f53fac002430cb0da5b7982bd2287'];

/** Same feature flags as `cdk synth` (cdk.json), so the tests see the template the CLI makes. */
const cdkContext = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> }).context;

/**
 * Synthesizes the stack. Bundling (esbuild, ~2 s a function) is skipped unless asked for: the
 * template is the same either way, and one small bundled synth below proves bundling works.
 */
function synthApp(props: Partial<LiveTranscribeStackProps> = {}, { bundle = false } = {}): { template: Template; outdir: string } {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk-test-'));
  const context = { ...cdkContext, ...(bundle ? { 'aws:cdk:enable-asset-metadata': true } : { 'aws:cdk:bundling-stacks': [] }) };
  const app = new App({ outdir, context });
  const stack = new LiveTranscribeStack(app, 'Test', { stage: 'dev', mailDomain: 'example.com', ...props });
  return { template: Template.fromStack(stack), outdir };
}
const synth = (props: Partial<LiveTranscribeStackProps> = {}, opts: { bundle?: boolean } = {}): Template => synthApp(props, opts).template;

/** An empty folder: no built site, so the CSP hashes come from web/index.html. */
const noSite = () => fs.mkdtempSync(path.join(os.tmpdir(), 'nosite-'));

/** A built site: index.html (with `inline` as an inline script when given) and one hashed asset. */
function builtSite(inline?: string): string {
  const site = fs.mkdtempSync(path.join(os.tmpdir(), 'site-'));
  fs.mkdirSync(path.join(site, 'assets'));
  const script = inline === undefined ? '' : `<script>${inline}</script>`;
  fs.writeFileSync(path.join(site, 'index.html'), `<!doctype html><title>x</title>${script}<script type="module" src="/assets/index-abc.js"></script>`);
  fs.writeFileSync(path.join(site, 'assets', 'index-abc.js'), 'console.log(1)');
  return site;
}

const sha256Source = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The CSP of the template's response-headers policy, as directive -> sources. */
function cspOf(t: Template): Map<string, string[]> {
  const policies = ofType(t, 'AWS::CloudFront::ResponseHeadersPolicy');
  expect(policies).toHaveLength(1);
  const csp = policies[0]![1].Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy as string;
  return new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name!, sources]));
}

const alarmsOf = (t: Template) => new Map(ofType(t, 'AWS::CloudWatch::Alarm').map(([id, a]) => [a.Properties.AlarmName as string, { id, ...a.Properties }]));
/** The metrics (MetricStat.Metric) an alarm reads, by query id. */
const metricsOf = (alarm: Json): Record<string, Json> =>
  Object.fromEntries(asArray<Json>(alarm.Metrics).filter((m) => m.MetricStat).map((m) => [m.Id, { ...m.MetricStat.Metric, Stat: m.MetricStat.Stat, Period: m.MetricStat.Period }]));
const dims = (metric: Json): Record<string, Json> => Object.fromEntries(asArray<Json>(metric.Dimensions).map((d) => [d.Name, d.Value]));

const ofType = (t: Template, type: string): [string, Resource][] =>
  Object.entries(t.toJSON().Resources as Record<string, Resource>).filter(([, r]) => r.Type === type);

const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** Logical id of the function behind `METHOD /path`, following route -> integration -> function. */
function functionOfRoute(t: Template, routeKey: string): string {
  const [, route] = ofType(t, 'AWS::ApiGatewayV2::Route').find(([, r]) => r.Properties.RouteKey === routeKey) ?? [];
  if (!route) throw new Error(`no API route ${routeKey}`);
  const target = JSON.stringify(route.Properties.Target);
  const integrationId = /"Ref":"([^"]+)"/.exec(target)?.[1];
  const integration = integrationId ? (t.toJSON().Resources[integrationId] as Resource | undefined) : undefined;
  if (integration?.Type !== 'AWS::ApiGatewayV2::Integration') throw new Error(`route ${routeKey} has no integration`);
  const fnId = integration.Properties.IntegrationUri?.['Fn::GetAtt']?.[0] as string | undefined;
  if (!fnId) throw new Error(`integration of ${routeKey} is not a Lambda function`);
  return fnId;
}

/** Every statement of the inline policies attached to the role of function `fnId`. */
function statementsOfFunction(t: Template, fnId: string): Json[] {
  const fn = t.toJSON().Resources[fnId] as Resource;
  const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
  const role = t.toJSON().Resources[roleId] as Resource;
  const inline = asArray<Json>(role.Properties.Policies).flatMap((p: Json) => asArray<Json>(p.PolicyDocument.Statement));
  const attached = ofType(t, 'AWS::IAM::Policy')
    .filter(([, p]) => asArray<Json>(p.Properties.Roles).some((r: Json) => r.Ref === roleId))
    .flatMap(([, p]) => asArray<Json>(p.Properties.PolicyDocument.Statement));
  return [...inline, ...attached];
}

const actionsOf = (statements: Json[], prefix: string): string[] =>
  [...new Set(statements.flatMap((s: Json) => asArray<string>(s.Action)).filter((a) => a.startsWith(prefix)))].sort();

/** Every IAM statement anywhere in the template (policies, roles, managed policies, resource policies). */
function allStatements(t: Template): Json[] {
  const out: Json[] = [];
  for (const [, r] of Object.entries(t.toJSON().Resources as Record<string, Resource>)) {
    const p = r.Properties ?? {};
    if (p.PolicyDocument) out.push(...asArray(p.PolicyDocument.Statement));
    for (const pol of asArray<Json>(p.Policies)) out.push(...asArray(pol.PolicyDocument?.Statement));
  }
  return out;
}

describe('LiveTranscribe stack (dev, full route table)', () => {
  let t: Template;
  let json: Json;
  let routeFunctions: Map<string, string>;

  beforeAll(() => {
    t = synth({ siteDir: noSite() });
    json = t.toJSON();
    routeFunctions = new Map(ROUTES.map(([name, r]) => [name, functionOfRoute(t, `${r.method} ${r.path}`)]));
  });

  it('has an API route and its own function for every route-table entry', () => {
    const keys = ofType(t, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey as string);
    expect(keys.sort()).toEqual(ROUTES.map(([, r]) => `${r.method} ${r.path}`).sort());
    expect(new Set(routeFunctions.values()).size).toBe(ROUTES.length);
    for (const [, r] of ofType(t, 'AWS::ApiGatewayV2::Route')) expect(r.Properties.AuthorizationType ?? 'NONE').toBe('NONE');
    for (const [, i] of ofType(t, 'AWS::ApiGatewayV2::Integration')) {
      expect(i.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
    }
  });

  it('has no Lambda functions besides the route handlers and CDK helpers', () => {
    const all = ofType(t, 'AWS::Lambda::Function');
    const helpers = all.filter(([id]) => HELPER_PREFIXES.some((p) => id.startsWith(p)));
    const handlers = all.filter(([id]) => !helpers.some(([h]) => h === id));
    expect(handlers.map(([id]) => id).sort()).toEqual([...routeFunctions.values()].sort());
    const nodeHandlers = all.filter(([, f]) => String(f.Properties.Runtime).startsWith('nodejs') && f.Properties.Environment?.Variables?.TABLE_NAME);
    expect(nodeHandlers).toHaveLength(ROUTES.length);
  });

  it('builds every function with the fixed defaults', () => {
    for (const fnId of routeFunctions.values()) {
      const p = json.Resources[fnId].Properties;
      expect(p).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Handler: 'index.handler', MemorySize: 512, Timeout: 10 });
      const logGroupId = p.LoggingConfig.LogGroup.Ref as string;
      expect(json.Resources[logGroupId]).toMatchObject({ Type: 'AWS::Logs::LogGroup', Properties: { RetentionInDays: 30 } });
      const vars = p.Environment.Variables;
      expect(vars).toMatchObject({ MAIL_TRANSPORT: 'ses', MAIL_FROM: 'Live Transcribe <no-reply@example.com>' });
      expect(vars.TABLE_NAME).toEqual({ Ref: ofType(t, 'AWS::DynamoDB::GlobalTable')[0]![0] });
      expect(vars.SECRETS_ID).toEqual({ Ref: ofType(t, 'AWS::SecretsManager::Secret')[0]![0] });
      expect(JSON.stringify(vars.APP_URL)).toContain(ofType(t, 'AWS::CloudFront::Distribution')[0]![0]);
      for (const k of Object.keys(vars)) expect(k).not.toMatch(/JWT|RECAPTCHA|STRIPE_(SECRET|WEBHOOK)|SECRET$/);
    }
  });

  it('gives every function its own role', () => {
    const roles = [...routeFunctions.values()].map((fnId) => json.Resources[fnId].Properties.Role['Fn::GetAtt'][0] as string);
    expect(new Set(roles).size).toBe(ROUTES.length);
    for (const roleId of roles) {
      expect(json.Resources[roleId].Properties.AssumeRolePolicyDocument.Statement).toEqual([
        expect.objectContaining({ Effect: 'Allow', Action: 'sts:AssumeRole', Principal: { Service: 'lambda.amazonaws.com' } }),
      ]);
    }
  });

  it('grants each function exactly the DynamoDB actions its route lists, on the table and its indexes only', () => {
    const tableId = ofType(t, 'AWS::DynamoDB::GlobalTable')[0]![0];
    for (const [name, route] of ROUTES) {
      const statements = statementsOfFunction(t, routeFunctions.get(name)!);
      expect(actionsOf(statements, 'dynamodb:'), name).toEqual([...new Set(route.table)].map((a) => `dynamodb:${a}`).sort());
      for (const s of statements.filter((s: Json) => asArray<string>(s.Action).some((a) => a.startsWith('dynamodb:')))) {
        expect(s.Resource).toEqual([
          { 'Fn::GetAtt': [tableId, 'Arn'] },
          { 'Fn::Join': ['', [{ 'Fn::GetAtt': [tableId, 'Arn'] }, '/index/*']] },
        ]);
      }
    }
  });

  it('reserves concurrency for the Stripe webhook and login functions only', () => {
    expect(DEFAULT_RESERVED_CONCURRENCY).toEqual({ stripeWebhook: 10, login: 20 });
    for (const [name] of ROUTES) {
      const fn = json.Resources[routeFunctions.get(name)!];
      expect(fn.Properties.ReservedConcurrentExecutions, name).toBe(DEFAULT_RESERVED_CONCURRENCY[name]);
    }
  });

  it('lets every function read the app secret and the origin secret (and no other), and only mail routes send mail', () => {
    const [secretId, originId] = ofType(t, 'AWS::SecretsManager::Secret').map(([id]) => id);
    const identityId = ofType(t, 'AWS::SES::EmailIdentity')[0]![0];
    for (const [name, route] of ROUTES) {
      const statements = statementsOfFunction(t, routeFunctions.get(name)!);
      expect(actionsOf(statements, 'secretsmanager:'), name).toEqual(['secretsmanager:GetSecretValue']);
      const secretStatements = statements.filter((s: Json) => asArray<string>(s.Action).some((a) => a.startsWith('secretsmanager:')));
      expect(secretStatements.flatMap((s: Json) => asArray(s.Resource))).toEqual([{ Ref: secretId }, { Ref: originId }]);
      expect(actionsOf(statements, 'ses:'), name).toEqual(route.mail ? ['ses:SendEmail', 'ses:SendRawEmail'] : []);
      if (route.mail) {
        const ses = statements.find((s: Json) => asArray<string>(s.Action).includes('ses:SendEmail'));
        expect(JSON.stringify(ses.Resource)).toContain(identityId);
      }
    }
  });

  it('has no wildcard IAM actions, no Scan, and no DynamoDB action on Resource *', () => {
    const statements = allStatements(t);
    expect(statements.length).toBeGreaterThan(0);
    for (const s of statements) {
      const actions = asArray<string>(s.Action);
      expect(actions).not.toContain('*');
      expect(actions).not.toContain('dynamodb:*');
      expect(actions).not.toContain('dynamodb:Scan');
      if (actions.some((a) => a.startsWith('dynamodb:'))) expect(asArray(s.Resource)).not.toContain('*');
    }
    for (const [, role] of ofType(t, 'AWS::IAM::Role')) {
      expect(JSON.stringify(role.Properties.ManagedPolicyArns ?? [])).not.toMatch(/FullAccess|AdministratorAccess/);
    }
  });

  it('keeps secret values out of the template', () => {
    const secrets = ofType(t, 'AWS::SecretsManager::Secret');
    expect(secrets).toHaveLength(2);
    const [app, origin] = secrets.map(([, r]) => r.Properties);
    expect(app.GenerateSecretString).toMatchObject({ GenerateStringKey: 'jwtSecret' });
    expect(origin.GenerateSecretString.GenerateStringKey).toBeUndefined();
    for (const p of [app, origin]) {
      expect(p.SecretString).toBeUndefined();
      expect(p.GenerateSecretString.PasswordLength).toBeGreaterThanOrEqual(43); // >= 256 bits
    }
    const text = JSON.stringify(json);
    // (boolean checks, so a failure does not print the whole template)
    const valued = /(jwtSecret|recaptchaSecret|stripeSecretKey|stripeWebhookSecret)\\*"\s*:\s*\\*"[^"\\]/.exec(text);
    expect(valued?.[0], 'a secret key with a value').toBeUndefined();
    expect(/sk_(live|test)_|whsec_|rk_(live|test)_/.test(text), 'a Stripe key in the template').toBe(false);
    expect(text.includes('"SecretString"'), 'a SecretString property').toBe(false);
  });

  it('lets nothing in the template read any other secret', () => {
    const ids = ofType(t, 'AWS::SecretsManager::Secret').map(([id]) => ({ Ref: id }));
    for (const s of allStatements(t).filter((s: Json) => asArray<string>(s.Action).some((a) => a.startsWith('secretsmanager:')))) {
      for (const r of asArray(s.Resource)) expect(ids).toContainEqual(r);
    }
  });

  it('has CloudFront send the API the origin secret by reference (resolved at deploy), and the functions require it', () => {
    const originId = ofType(t, 'AWS::SecretsManager::Secret')[1]![0];
    const config = ofType(t, 'AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig;
    const apiOrigin = config.Origins.find((o: Json) => o.CustomOriginConfig);
    expect(apiOrigin.OriginCustomHeaders).toEqual([
      { HeaderName: ORIGIN_SECRET_HEADER, HeaderValue: { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: originId }, ':SecretString:::}}']] } },
    ]);
    // Only the API origin gets it (the bucket has no use for it).
    for (const o of config.Origins.filter((o: Json) => !o.CustomOriginConfig)) expect(o.OriginCustomHeaders, o.Id).toBeUndefined();
    for (const fnId of routeFunctions.values()) {
      expect(json.Resources[fnId].Properties.Environment.Variables.ORIGIN_SECRET_ID).toEqual({ Ref: originId });
    }
  });

  it('defines the table: PK/SK, GSI1, TTL expiresAt, PITR, on demand; dev may be deleted', () => {
    t.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      KeySchema: [
        { AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'SK', KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      GlobalSecondaryIndexes: [
        {
          IndexName: 'GSI1',
          KeySchema: [
            { AttributeName: 'GSI1PK', KeyType: 'HASH' },
            { AttributeName: 'GSI1SK', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
      Replicas: [Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } })],
    });
    const [, table] = ofType(t, 'AWS::DynamoDB::GlobalTable')[0]!;
    expect(table.Properties.Replicas[0].DeletionProtectionEnabled ?? false).toBe(false);
    t.hasResource('AWS::DynamoDB::GlobalTable', { DeletionPolicy: 'Delete' });
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

  it('forwards the four API path patterns to the HTTP API, uncached, all methods', () => {
    const config = ofType(t, 'AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig;
    const apiId = ofType(t, 'AWS::ApiGatewayV2::Api')[0]![0];
    const apiOrigin = config.Origins.find((o: Json) => o.CustomOriginConfig);
    expect(JSON.stringify(apiOrigin.DomainName)).toContain(apiId);
    expect(apiOrigin.CustomOriginConfig.OriginProtocolPolicy).toBe('https-only');
    const patterns = config.CacheBehaviors.map((b: Json) => b.PathPattern as string);
    expect(patterns.sort()).toEqual([...API_PATH_PATTERNS].sort());
    for (const b of config.CacheBehaviors) {
      expect(b).toMatchObject({
        TargetOriginId: apiOrigin.Id,
        CachePolicyId: CACHING_DISABLED,
        OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
        AllowedMethods: expect.arrayContaining(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE']),
      });
      // The visitor's address reaches the handlers (per-client rate limits behind CloudFront).
      expect(b.FunctionAssociations).toEqual([{ EventType: 'viewer-request', FunctionARN: expect.anything() }]);
    }
    // Every route of the table is reachable through one of the forwarded patterns.
    for (const [, r] of ROUTES) {
      const covered = API_PATH_PATTERNS.some((p) => (p.endsWith('/*') ? r.path.startsWith(p.slice(0, -1)) : r.path === p));
      expect(covered, r.path).toBe(true);
    }
  });

  it('exports the site URL, API URL, table name, secret name, alarm topic and access log', () => {
    const outputs = Object.keys(json.Outputs as Record<string, unknown>);
    expect(outputs).toEqual(expect.arrayContaining(['SiteUrl', 'ApiUrl', 'TableName', 'SecretName', 'AlarmTopicArn', 'ApiAccessLogGroup']));
    const distId = ofType(t, 'AWS::CloudFront::Distribution')[0]![0];
    expect(json.Outputs.SiteUrl.Value).toEqual({ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distId, 'DomainName'] }]] });
  });

  // --- Security headers ---

  it('sends one custom security-headers policy (not the managed one) on the SPA and every API behaviour', () => {
    const [policyId] = ofType(t, 'AWS::CloudFront::ResponseHeadersPolicy')[0]!;
    const config = ofType(t, 'AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig;
    expect(config.DefaultCacheBehavior.ResponseHeadersPolicyId).toEqual({ Ref: policyId });
    expect(config.CacheBehaviors).toHaveLength(API_PATH_PATTERNS.length);
    for (const b of config.CacheBehaviors) expect(b.ResponseHeadersPolicyId, b.PathPattern).toEqual({ Ref: policyId });
    expect(JSON.stringify(json)).not.toContain(MANAGED_SECURITY_HEADERS);
  });

  it('sends HSTS (2 years, subdomains, preload), nosniff, strict-origin-when-cross-origin, DENY and a microphone-only permissions policy', () => {
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
    expect([...features].filter(([, allow]) => allow !== '()')).toEqual([['microphone', '(self)']]);
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

  // --- Throttling ---

  it('throttles the stage, and login, register, forgot-password, contact, analytics and the dev password per route', () => {
    const stages = ofType(t, 'AWS::ApiGatewayV2::Stage');
    expect(stages).toHaveLength(1);
    const [stageId, stage] = stages[0]!;
    expect(stage.Properties).toMatchObject({
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingBurstLimit: DEFAULT_THROTTLE.burstLimit, ThrottlingRateLimit: DEFAULT_THROTTLE.rateLimit },
    });
    const names = ['login', 'register', 'forgotPassword', 'contact', 'analytics', 'checkDevPassword'] as const;
    expect(Object.keys(ROUTE_THROTTLES).sort()).toEqual([...names].sort());
    const settings = stage.Properties.RouteSettings as Record<string, Json>;
    expect(Object.keys(settings).sort()).toEqual(names.map((n) => keyOf(routes[n])).sort());
    expect(settings['POST /api/auth/login']).toEqual({ ThrottlingBurstLimit: 20, ThrottlingRateLimit: 10 });
    for (const n of names) {
      const s = settings[keyOf(routes[n])];
      expect(s, n).toEqual({ ThrottlingBurstLimit: ROUTE_THROTTLES[n].burstLimit, ThrottlingRateLimit: ROUTE_THROTTLES[n].rateLimit });
      expect(s.ThrottlingRateLimit, n).toBeLessThan(DEFAULT_THROTTLE.rateLimit);
    }
    for (const n of ['contact', 'forgotPassword', 'checkDevPassword'] as const) {
      expect(ROUTE_THROTTLES[n].rateLimit, n).toBeLessThan(ROUTE_THROTTLES.login.rateLimit);
      expect(ROUTE_THROTTLES[n].burstLimit, n).toBeLessThan(ROUTE_THROTTLES.login.burstLimit);
    }
    // The stage is created after the routes its settings name (API Gateway refuses unknown route keys).
    const dependsOn = asArray<string>(json.Resources[stageId].DependsOn);
    for (const n of names) {
      const [routeId] = ofType(t, 'AWS::ApiGatewayV2::Route').find(([, r]) => r.Properties.RouteKey === keyOf(routes[n]))!;
      expect(dependsOn, n).toContain(routeId);
    }
  });

  it('derives the throttled route keys from the route table, so a moved path follows', () => {
    const moved = { ...routes, login: { ...routes.login, path: '/api/v2/login' } } as Record<string, RouteDef>;
    const keys = [...routeThrottles(moved).keys()];
    expect(keys).toContain('POST /api/v2/login');
    expect(keys).not.toContain('POST /api/auth/login');
    expect([...routeThrottles({ getMe: routes.getMe }).keys()]).toEqual([]);
  });

  // --- Logs ---

  it('keeps function logs and the API access log a month, and logs request ids in JSON', () => {
    const [, stage] = ofType(t, 'AWS::ApiGatewayV2::Stage')[0]!;
    const logGroupId = stage.Properties.AccessLogSettings.DestinationArn['Fn::GetAtt'][0] as string;
    expect(json.Resources[logGroupId]).toMatchObject({ Type: 'AWS::Logs::LogGroup', Properties: { RetentionInDays: 30 }, DeletionPolicy: 'Delete' });
    const format = stage.Properties.AccessLogSettings.Format as string;
    expect(format).toBe(ACCESS_LOG_FORMAT);
    const sample = JSON.parse(format.replace(/\$context\.[A-Za-z.]+/g, '0'));
    expect(sample).toMatchObject({ requestId: '0', routeKey: '0', status: 0, lambdaRequestId: '0', integrationError: '0' });
    for (const [, g] of ofType(t, 'AWS::Logs::LogGroup')) expect(g.Properties.RetentionInDays).toBe(30);
    expect(ofType(t, 'AWS::Logs::LogGroup')).toHaveLength(ROUTES.length + 1);
    for (const fnId of routeFunctions.values()) {
      expect(json.Resources[fnId].Properties.Environment.Variables.POWERTOOLS_SERVICE_NAME).toBe('live-transcribe');
    }
  });

  // --- Alarms ---

  it('has an SNS topic for alarms, without a subscription unless alarmEmail is set', () => {
    t.resourceCountIs('AWS::SNS::Topic', 1);
    t.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it('alarms on the API 5xx rate (> 1 % or >= 5 in 5 minutes)', () => {
    const apiId = ofType(t, 'AWS::ApiGatewayV2::Api')[0]![0];
    const topicId = ofType(t, 'AWS::SNS::Topic')[0]![0];
    const alarm = alarmsOf(t).get('Test-api-5xx')!;
    expect(alarm).toMatchObject({ ComparisonOperator: 'GreaterThanThreshold', Threshold: API_5XX_RATE_PERCENT, EvaluationPeriods: 1, TreatMissingData: 'notBreaching' });
    expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
    expect(alarm.OKActions).toEqual([{ Ref: topicId }]);
    const m = metricsOf(alarm);
    expect(m.e5).toMatchObject({ Namespace: 'AWS/ApiGateway', MetricName: '5xx', Stat: 'Sum', Period: 300 });
    expect(m.n).toMatchObject({ Namespace: 'AWS/ApiGateway', MetricName: 'Count', Period: 300 });
    for (const metric of [m.e5, m.n]) expect(dims(metric)).toEqual({ ApiId: { Ref: apiId }, Stage: '$default' });
    const expr = asArray<Json>(alarm.Metrics).find((q) => q.ReturnData)!.Expression as string;
    expect(expr).toContain(`>= ${API_5XX_COUNT}`);
    expect(expr).toContain('100 * FILL(e5, 0) / FILL(n, 0)');
  });

  it('alarms per function on Lambda errors or 5xx on its route (the webhook under its own name)', () => {
    const alarms = alarmsOf(t);
    const filter = ofType(t, 'AWS::Logs::MetricFilter').find(([, f]) => f.Properties.MetricTransformations[0].MetricName === 'Route5xx')![1];
    expect(filter.Properties).toMatchObject({ FilterPattern: '{ $.status >= 500 }' });
    expect(filter.Properties.MetricTransformations[0]).toMatchObject({ MetricNamespace: 'Test', MetricValue: '1', Dimensions: [{ Key: 'Route', Value: '$.routeKey' }] });
    const accessLogs = ofType(t, 'AWS::ApiGatewayV2::Stage')[0]![1].Properties.AccessLogSettings.DestinationArn['Fn::GetAtt'][0];
    expect(filter.Properties.LogGroupName).toEqual({ Ref: accessLogs });
    for (const [name, route] of ROUTES) {
      const alarmName = name === 'stripeWebhook' ? 'Test-stripe-webhook-failed' : `Test-errors-${name}`;
      const alarm = alarms.get(alarmName);
      expect(alarm, alarmName).toBeDefined();
      expect(alarm).toMatchObject({ ComparisonOperator: 'GreaterThanOrEqualToThreshold', Threshold: 1 });
      const m = metricsOf(alarm);
      expect(m.errors).toMatchObject({ Namespace: 'AWS/Lambda', MetricName: 'Errors', Stat: 'Sum', Period: 300 });
      expect(dims(m.errors)).toEqual({ FunctionName: { Ref: routeFunctions.get(name) } });
      expect(m.api5xx).toMatchObject({ Namespace: 'Test', MetricName: 'Route5xx', Stat: 'Sum' });
      expect(dims(m.api5xx)).toEqual({ Route: keyOf(route) });
      expect(alarm!.AlarmActions).toHaveLength(1);
    }
    expect(alarms.has('Test-errors-stripeWebhook')).toBe(false);
  });

  it('alarms when Stripe webhook calls are refused (4xx: a wrong webhook secret)', () => {
    const filter = ofType(t, 'AWS::Logs::MetricFilter').find(([, f]) => f.Properties.MetricTransformations[0].MetricName === 'StripeWebhookRejected')![1];
    expect(filter.Properties.FilterPattern).toBe(`{ ($.routeKey = "${keyOf(routes.stripeWebhook)}") && ($.status >= 400) && ($.status < 500) }`);
    const alarm = alarmsOf(t).get('Test-stripe-webhook-rejected')!;
    expect(alarm).toMatchObject({ Namespace: 'Test', MetricName: 'StripeWebhookRejected', Statistic: 'Sum', Period: 3600, Threshold: WEBHOOK_REJECTED_PER_HOUR });
    expect(alarm.AlarmActions).toHaveLength(1);
  });

  it('alarms when any function is throttled (groups of at most 10 functions under one composite alarm)', () => {
    const alarms = alarmsOf(t);
    const groups = [...alarms.values()].filter((a) => a.AlarmName.startsWith('Test-lambda-throttles-'));
    expect(groups.length).toBe(Math.ceil(ROUTES.length / 10));
    const throttled: Json[] = [];
    for (const g of groups) {
      const m = Object.values(metricsOf(g));
      expect(m.length).toBeLessThanOrEqual(10);
      for (const metric of m) expect(metric).toMatchObject({ Namespace: 'AWS/Lambda', MetricName: 'Throttles', Stat: 'Sum' });
      throttled.push(...m.map((metric) => dims(metric).FunctionName));
      expect(g).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
      expect(g.AlarmActions).toBeUndefined(); // the composite notifies
    }
    expect(throttled.sort((a, b) => a.Ref.localeCompare(b.Ref))).toEqual([...routeFunctions.values()].sort().map((id) => ({ Ref: id })));
    const composites = ofType(t, 'AWS::CloudWatch::CompositeAlarm');
    expect(composites).toHaveLength(1);
    const c = composites[0]![1].Properties;
    expect(c.AlarmName).toBe('Test-lambda-throttles');
    expect(c.AlarmActions).toEqual([{ Ref: ofType(t, 'AWS::SNS::Topic')[0]![0] }]);
    const rule = JSON.stringify(c.AlarmRule);
    for (const g of groups) expect(rule).toContain(g.id);
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

describe('LiveTranscribe stack (prod, generic routes, built site, bundled)', () => {
  let t: Template;
  let outdir: string;
  const extraRoutes: Record<string, RouteDef> = {
    // Any table entry becomes a route: a path parameter, DELETE, and auth 'stripe' need nothing special.
    deleteThing: { ...routes.getMe, method: 'DELETE', path: '/transcriptions/{id}', auth: 'user', table: ['Query', 'DeleteItem', 'BatchWriteItem'] },
    hook: { ...routes.getMe, method: 'POST', path: '/stripe/webhook', auth: 'stripe', table: ['GetItem', 'PutItem'], mail: true },
  };

  beforeAll(() => {
    ({ template: t, outdir } = synthApp(
      {
        stage: 'prod',
        routes: extraRoutes,
        siteDir: builtSite(),
        mailDomain: 'mail.example.org',
        domainName: 'app.example.org',
        certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/00000000-0000-0000-0000-000000000000',
      },
      { bundle: true },
    ));
  });

  it('bundles each handler with the local esbuild: one minified ESM file with the require banner', () => {
    const handlers = ofType(t, 'AWS::Lambda::Function').filter(([, f]) => f.Properties.Environment?.Variables?.TABLE_NAME);
    expect(handlers).toHaveLength(2);
    for (const [id] of handlers) {
      const assetPath = t.toJSON().Resources[id].Metadata['aws:asset:path'] as string;
      const code = fs.readFileSync(path.join(outdir, assetPath, 'index.mjs'), 'utf8');
      expect(code.startsWith(ESM_REQUIRE_BANNER)).toBe(true);
      expect(code.length / code.split('\n').length).toBeGreaterThan(300); // minified: long lines
    }
  });

  it('throttles only the stage when the table has none of the throttled routes, and alarms on its functions', () => {
    const stage = ofType(t, 'AWS::ApiGatewayV2::Stage')[0]![1].Properties;
    expect(stage.DefaultRouteSettings).toBeDefined();
    expect(stage.RouteSettings).toBeUndefined();
    const names = [...alarmsOf(t).keys()];
    expect(names).toEqual(expect.arrayContaining(['Test-api-5xx', 'Test-errors-deleteThing', 'Test-errors-hook', 'Test-lambda-throttles-1']));
    expect(names.some((n) => n.includes('stripe-webhook'))).toBe(false); // webhook alarms follow the route-table name
  });

  it('creates routes from any route table', () => {
    t.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'DELETE /transcriptions/{id}' });
    t.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'POST /stripe/webhook', AuthorizationType: 'NONE' });
    const del = statementsOfFunction(t, functionOfRoute(t, 'DELETE /transcriptions/{id}'));
    expect(actionsOf(del, 'dynamodb:')).toEqual(['dynamodb:BatchWriteItem', 'dynamodb:DeleteItem', 'dynamodb:Query']);
    expect(actionsOf(del, 'ses:')).toEqual([]);
    const hook = statementsOfFunction(t, functionOfRoute(t, 'POST /stripe/webhook'));
    expect(actionsOf(hook, 'ses:')).toEqual(['ses:SendEmail', 'ses:SendRawEmail']);
  });

  it('protects the production table', () => {
    t.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      Replicas: [Match.objectLike({ DeletionProtectionEnabled: true, PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } })],
    });
    t.hasResource('AWS::DynamoDB::GlobalTable', { DeletionPolicy: 'Retain' });
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

describe('LiveTranscribe stack (prod, full route table, all context)', () => {
  let t: Template;
  let json: Json;
  const inline = "document.documentElement.classList.add('dark')";
  const analytics = ['https://*.googletagmanager.com', 'https://*.google-analytics.com', 'https://*.clarity.ms'];

  beforeAll(() => {
    t = synth({
      stage: 'prod',
      siteDir: builtSite(inline),
      alarmEmail: 'ops@example.org',
      analyticsOrigins: analytics,
      surveyOrigin: 'https://forms.example.net',
    });
    json = t.toJSON();
  });

  it('protects the production table: point-in-time recovery, deletion protection, retained', () => {
    t.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      Replicas: [Match.objectLike({ DeletionProtectionEnabled: true, PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } })],
    });
    t.hasResource('AWS::DynamoDB::GlobalTable', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    t.hasResource('AWS::SecretsManager::Secret', { DeletionPolicy: 'Retain' });
  });

  it('keeps production logs when the stack is deleted', () => {
    // (CDK's own helper functions for the site deployment bring their own log groups.)
    const groups = ofType(t, 'AWS::Logs::LogGroup').filter(([id]) => id.startsWith('Api'));
    expect(groups).toHaveLength(ROUTES.length + 1);
    for (const [id] of groups) expect(json.Resources[id]).toMatchObject({ DeletionPolicy: 'Retain', Properties: { RetentionInDays: 30 } });
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

  it('subscribes alarmEmail to the alarm topic', () => {
    t.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.org',
      TopicArn: { Ref: ofType(t, 'AWS::SNS::Topic')[0]![0] },
    });
  });

  it('names alarms after the stack, one per function plus API, webhook and throttles', () => {
    const names = [...alarmsOf(t).keys()];
    expect(names).toEqual(expect.arrayContaining(['Test-api-5xx', 'Test-stripe-webhook-failed', 'Test-stripe-webhook-rejected', 'Test-errors-login']));
    expect(names.filter((n) => n.startsWith('Test-errors-'))).toHaveLength(ROUTES.length - 1);
  });
});

describe('LiveTranscribe stack on an existing table (after a point-in-time restore)', () => {
  it('uses the named table for every function and grant, and creates none', () => {
    const t = synth({ stage: 'prod', siteDir: noSite(), tableName: 'live-transcribe-restored' });
    t.resourceCountIs('AWS::DynamoDB::GlobalTable', 0);
    t.resourceCountIs('AWS::DynamoDB::Table', 0);
    const fns = ofType(t, 'AWS::Lambda::Function').filter(([, f]) => f.Properties.Environment?.Variables?.TABLE_NAME);
    expect(fns).toHaveLength(ROUTES.length);
    for (const [, f] of fns) expect(f.Properties.Environment.Variables.TABLE_NAME).toBe('live-transcribe-restored');
    const login = statementsOfFunction(t, functionOfRoute(t, keyOf(routes.login)));
    const dynamo = login.find((s: Json) => asArray<string>(s.Action).some((a) => a.startsWith('dynamodb:')));
    expect(JSON.stringify(dynamo.Resource)).toContain(':table/live-transcribe-restored');
    expect(actionsOf(login, 'dynamodb:')).toEqual([...routes.login.table].map((a) => `dynamodb:${a}`).sort());
    t.hasOutput('TableName', { Value: 'live-transcribe-restored' });
  });

  it('refuses a malformed table name', () => {
    expect(() => synth({ tableName: 'bad name;' })).toThrow(/not a DynamoDB table name/);
  });
});

describe('reserved concurrency from context', () => {
  const reservedOf = (t: Template, name: 'stripeWebhook' | 'login') =>
    t.toJSON().Resources[functionOfRoute(t, keyOf(routes[name]))].Properties.ReservedConcurrentExecutions as number | undefined;

  it('keeps the defaults when unset and takes whole numbers from context', () => {
    expect(reservedConcurrencyFromContext(() => undefined)).toEqual(DEFAULT_RESERVED_CONCURRENCY);
    const context: Record<string, string> = { webhookReservedConcurrency: '3', loginReservedConcurrency: '7' };
    expect(reservedConcurrencyFromContext((k) => context[k])).toEqual({ stripeWebhook: 3, login: 7 });
  });

  it('refuses anything but a whole number', () => {
    for (const bad of ['-1', '2.5', 'ten', '1e3']) {
      expect(() => reservedConcurrencyFromContext((k) => (k === 'loginReservedConcurrency' ? bad : undefined))).toThrow(
        /loginReservedConcurrency must be a whole number/,
      );
    }
  });

  it('sets the amounts given, and 0 reserves nothing (Lambda would read 0 as no executions at all)', () => {
    const t = synth({ siteDir: noSite(), reservedConcurrency: { stripeWebhook: 4, login: 6 } });
    expect([reservedOf(t, 'stripeWebhook'), reservedOf(t, 'login')]).toEqual([4, 6]);
    const none = synth({ siteDir: noSite(), reservedConcurrency: reservedConcurrencyFromContext(() => '0') });
    expect([reservedOf(none, 'stripeWebhook'), reservedOf(none, 'login')]).toEqual([undefined, undefined]);
    for (const [, fn] of ofType(none, 'AWS::Lambda::Function')) expect(fn.Properties.ReservedConcurrentExecutions).toBeUndefined();
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
