import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes, type RouteDef } from '@app/shared/routes';
import { DEFAULT_RESERVED_CONCURRENCY, reservedConcurrencyFromContext } from '../lib/api-function.ts';
import { ESM_REQUIRE_BANNER } from '../lib/bundling.ts';
import { DEFAULT_THROTTLE, ROUTE_THROTTLES, routeThrottles } from '../lib/throttling.ts';
import { actionsOf, alarmsOf, allStatements, asArray, devStack, functionOfRoute, genericProdStack, keyOf, noSite, ofType, ROUTES, statementsOfFunction, synth, type Json } from './template.ts';

/** The HTTP API: a route and a function per route-table entry, their defaults, grants, reservations, bundles and throttling. */

/** CDK's own helper functions (not route handlers), by logical-id prefix. */
const HELPER_PREFIXES = ['CustomCDKBucketDeployment', 'LogRetention', 'CustomS3AutoDeleteObjects', 'AWS679f53fac002430cb0da5b7982bd2287'];

describe('HTTP API and its functions (dev, full route table)', () => {
  let t: Template;
  let json: Json;
  let routeFunctions: Map<string, string>;

  beforeAll(() => {
    ({ t, json, routeFunctions } = devStack());
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

  it('throttles the stage, and login, register, forgot-password, contact, analytics, the dev password and the live view and pings per route', () => {
    const stages = ofType(t, 'AWS::ApiGatewayV2::Stage');
    expect(stages).toHaveLength(1);
    const [stageId, stage] = stages[0]!;
    expect(stage.Properties).toMatchObject({
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingBurstLimit: DEFAULT_THROTTLE.burstLimit, ThrottlingRateLimit: DEFAULT_THROTTLE.rateLimit },
    });
    const costly = ['login', 'register', 'forgotPassword', 'contact', 'analytics', 'checkDevPassword'] as const;
    const names = [...costly, 'viewLiveShare', 'recordLiveViewer'] as const;
    expect(Object.keys(ROUTE_THROTTLES).sort()).toEqual([...names].sort());
    const settings = stage.Properties.RouteSettings as Record<string, Json>;
    expect(Object.keys(settings).sort()).toEqual(names.map((n) => keyOf(routes[n])).sort());
    expect(settings['POST /api/auth/login']).toEqual({ ThrottlingBurstLimit: 20, ThrottlingRateLimit: 10 });
    for (const n of names) {
      const s = settings[keyOf(routes[n])];
      expect(s, n).toEqual({ ThrottlingBurstLimit: ROUTE_THROTTLES[n].burstLimit, ThrottlingRateLimit: ROUTE_THROTTLES[n].rateLimit });
    }
    for (const n of costly) expect(settings[keyOf(routes[n])]!.ThrottlingRateLimit, n).toBeLessThan(DEFAULT_THROTTLE.rateLimit);
    // A crowd of viewers has buckets of its own, no smaller than the stage's.
    for (const n of ['viewLiveShare', 'recordLiveViewer'] as const) expect(ROUTE_THROTTLES[n].rateLimit, n).toBeGreaterThanOrEqual(DEFAULT_THROTTLE.rateLimit);
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
});

describe('HTTP API from any route table (prod, generic routes, built site, bundled)', () => {
  let t: Template;
  let outdir: string;

  beforeAll(() => {
    ({ t, outdir } = genericProdStack({ bundle: true }));
  });

  it('bundles each handler with the local esbuild: one minified ESM file with the require banner and a map without sources', () => {
    const handlers = ofType(t, 'AWS::Lambda::Function').filter(([, f]) => f.Properties.Environment?.Variables?.TABLE_NAME);
    expect(handlers).toHaveLength(2);
    for (const [id, f] of handlers) {
      expect(f.Properties.Handler).toBe('index.handler');
      const assetPath = t.toJSON().Resources[id].Metadata['aws:asset:path'] as string;
      const code = fs.readFileSync(path.join(outdir, assetPath, 'index.mjs'), 'utf8');
      expect(code.startsWith(ESM_REQUIRE_BANNER)).toBe(true);
      expect(code.length / code.split('\n').length).toBeGreaterThan(300); // minified: long lines
      const map = JSON.parse(fs.readFileSync(path.join(outdir, assetPath, 'index.mjs.map'), 'utf8')) as { sources: string[]; sourcesContent?: unknown };
      expect(map.sources.length).toBeGreaterThan(0);
      expect(map.sourcesContent).toBeUndefined();
    }
  });

  it("gives each function its own handler's bundle (one esbuild run builds them all)", () => {
    const codeOf = (route: string) => {
      const assetPath = t.toJSON().Resources[functionOfRoute(t, route)].Metadata['aws:asset:path'] as string;
      return fs.readFileSync(path.join(outdir, assetPath, 'index.mjs.map'), 'utf8');
    };
    const sourcesOf = (route: string) => (JSON.parse(codeOf(route)) as { sources: string[] }).sources.filter((s) => s.includes('functions/src/handlers/'));
    expect(sourcesOf('DELETE /transcriptions/{id}')).toEqual([expect.stringMatching(/functions\/src\/handlers\/auth\/get-me\.ts$/)]);
    expect(sourcesOf('POST /stripe/webhook')).toEqual([expect.stringMatching(/functions\/src\/handlers\/billing\/[\w-]+\.ts$/)]);
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
