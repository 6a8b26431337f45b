import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes, type RouteDef } from '@app/shared/routes';
import { repoRoot } from '../lib/paths.ts';
import { LiveTranscribeStack, type LiveTranscribeStackProps } from '../lib/stack.ts';
import { API_PATH_PATTERNS, SPA_REWRITE_CODE } from '../lib/web.ts';

/** CloudFormation JSON is untyped. */
type Json = any;
interface Resource {
  Type: string;
  Properties?: Json;
}

const ROUTES = Object.entries(routes as Record<string, RouteDef>);
/** Managed policy ids (AWS-published, stable). */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';
/** CDK's own helper functions (not route handlers), by logical-id prefix. */
const HELPER_PREFIXES = ['CustomCDKBucketDeployment', 'LogRetention', 'CustomS3AutoDeleteObjects', 'AWS679f53fac002430cb0da5b7982bd2287'];

/** Same feature flags as `cdk synth` (cdk.json), so the tests see the template the CLI makes. */
const cdkContext = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> }).context;

function synth(props: Partial<LiveTranscribeStackProps> = {}): Template {
  const app = new App({ context: { ...cdkContext } });
  const stack = new LiveTranscribeStack(app, 'Test', { stage: 'dev', mailDomain: 'example.com', ...props });
  return Template.fromStack(stack);
}

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
    t = synth();
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

  it('lets every function read the app secret, and only mail routes send mail', () => {
    const secretId = ofType(t, 'AWS::SecretsManager::Secret')[0]![0];
    const identityId = ofType(t, 'AWS::SES::EmailIdentity')[0]![0];
    for (const [name, route] of ROUTES) {
      const statements = statementsOfFunction(t, routeFunctions.get(name)!);
      expect(actionsOf(statements, 'secretsmanager:'), name).toEqual(['secretsmanager:GetSecretValue']);
      const secretStatement = statements.find((s: Json) => asArray<string>(s.Action).includes('secretsmanager:GetSecretValue'));
      expect(secretStatement.Resource).toEqual({ Ref: secretId });
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
    expect(secrets).toHaveLength(1);
    const p = secrets[0]![1].Properties;
    expect(p.SecretString).toBeUndefined();
    expect(p.GenerateSecretString).toMatchObject({ GenerateStringKey: 'jwtSecret' });
    expect(p.GenerateSecretString.PasswordLength).toBeGreaterThanOrEqual(43); // >= 256 bits
    const text = JSON.stringify(json);
    // (boolean checks, so a failure does not print the whole template)
    const valued = /(jwtSecret|recaptchaSecret|stripeSecretKey|stripeWebhookSecret)\\*"\s*:\s*\\*"[^"\\]/.exec(text);
    expect(valued?.[0], 'a secret key with a value').toBeUndefined();
    expect(/sk_(live|test)_|whsec_|rk_(live|test)_/.test(text), 'a Stripe key in the template').toBe(false);
    expect(text.includes('"SecretString"'), 'a SecretString property').toBe(false);
  });

  it('defines the table: PK/SK, GSI1, TTL expiresAt, PITR, on demand', () => {
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
      expect(b.FunctionAssociations).toBeUndefined();
    }
    // Every route of the table is reachable through one of the forwarded patterns.
    for (const [, r] of ROUTES) {
      const covered = API_PATH_PATTERNS.some((p) => (p.endsWith('/*') ? r.path.startsWith(p.slice(0, -1)) : r.path === p));
      expect(covered, r.path).toBe(true);
    }
  });

  it('exports the site URL, API URL, table name and secret name', () => {
    const outputs = Object.keys(json.Outputs as Record<string, unknown>);
    expect(outputs).toEqual(expect.arrayContaining(['SiteUrl', 'ApiUrl', 'TableName', 'SecretName']));
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

describe('LiveTranscribe stack (prod, generic routes, built site)', () => {
  let t: Template;
  const extraRoutes: Record<string, RouteDef> = {
    // Any table entry becomes a route: a path parameter, DELETE, and auth 'stripe' need nothing special.
    deleteThing: { ...routes.getMe, method: 'DELETE', path: '/transcriptions/{id}', auth: 'user', table: ['Query', 'DeleteItem', 'BatchWriteItem'] },
    hook: { ...routes.getMe, method: 'POST', path: '/stripe/webhook', auth: 'stripe', table: ['GetItem', 'PutItem'], mail: true },
  };

  beforeAll(() => {
    const site = fs.mkdtempSync(path.join(os.tmpdir(), 'site-'));
    fs.mkdirSync(path.join(site, 'assets'));
    fs.writeFileSync(path.join(site, 'index.html'), '<!doctype html><title>x</title>');
    fs.writeFileSync(path.join(site, 'assets', 'index-abc.js'), 'console.log(1)');
    t = synth({
      stage: 'prod',
      routes: extraRoutes,
      siteDir: site,
      mailDomain: 'mail.example.org',
      domainName: 'app.example.org',
      certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/00000000-0000-0000-0000-000000000000',
    });
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
