import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes, type RouteDef } from '@app/shared/routes';
import { SECRETS } from '@app/shared/secrets';
import { Runtime } from 'aws-cdk-lib/aws-lambda';
import { DEFAULT_RESERVED_CONCURRENCY, LAMBDA_RUNTIME, reservedConcurrencyFromContext } from '../lib/api-function.ts';
import { ESM_REQUIRE_BANNER, HANDLER_BUNDLING } from '../lib/bundling.ts';
import { API_STAGE_NAME, HOLD_MARGIN_SECONDS, HOLD_MEMORY_MB } from '../lib/api.ts';
import { restApiMethods } from '../lib/rest-api-methods.ts';
import { DEFAULT_THROTTLE, methodThrottles, ROUTE_THROTTLES, routeThrottles } from '../lib/throttling.ts';
import { actionsOf, alarmsOf, allStatements, asArray, devStack, functionOfRoute, genericProdStack, keyOf, noSite, ofType, ROUTES, statementsOfFunction, synth, type Json } from './template.ts';

/** The REST API: a method and a function per route-table entry, their defaults, grants, reservations, bundles and throttling. */

/** CDK's own helper functions (not route handlers), by logical-id prefix. */
const HELPER_PREFIXES = ['CustomCDKBucketDeployment', 'LogRetention', 'CustomS3AutoDeleteObjects', 'AWS679f53fac002430cb0da5b7982bd2287'];

describe('REST API and its functions (dev, full route table)', () => {
  let t: Template;
  let json: Json;
  let routeFunctions: Map<string, string>;

  beforeAll(() => {
    ({ t, json, routeFunctions } = devStack());
  });

  it('has exactly one method, a Lambda proxy integration of its own function, for every route-table entry', () => {
    const methods = restApiMethods(json.Resources);
    expect([...methods.keys()].sort()).toEqual(ROUTES.map(([, r]) => keyOf(r)).sort());
    expect(ofType(t, 'AWS::ApiGateway::Method')).toHaveLength(ROUTES.length);
    for (const [name, r] of ROUTES) expect(methods.get(keyOf(r))!.functionId, name).toBe(routeFunctions.get(name));
    expect(new Set(routeFunctions.values()).size).toBe(ROUTES.length);
    for (const [, m] of ofType(t, 'AWS::ApiGateway::Method')) {
      expect(m.Properties).toMatchObject({ AuthorizationType: 'NONE', Integration: { Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' } });
    }
    const [, api] = ofType(t, 'AWS::ApiGateway::RestApi')[0]!;
    expect(api.Properties).toMatchObject({ Name: 'Test-api', EndpointConfiguration: { Types: ['REGIONAL'] } });
    // Every body reaches the handlers as text: the Stripe webhook verifies its JSON byte for byte.
    expect(api.Properties.BinaryMediaTypes).toBeUndefined();
  });

  it('lets API Gateway invoke each function from its own method on the stage only: one permission per method', () => {
    const permissions = ofType(t, 'AWS::Lambda::Permission').filter(([, p]) => p.Properties.Principal === 'apigateway.amazonaws.com');
    expect(permissions).toHaveLength(ROUTES.length);
    const [stageId] = ofType(t, 'AWS::ApiGateway::Stage')[0]!;
    for (const [name, r] of ROUTES) {
      const mine = permissions.filter(([, p]) => p.Properties.FunctionName['Fn::GetAtt'][0] === routeFunctions.get(name));
      expect(mine, name).toHaveLength(1);
      const arn = JSON.stringify(mine[0]![1].Properties.SourceArn);
      expect(arn, name).toContain(`{"Ref":"${stageId}"}`);
      expect(arn, name).toContain(`/${r.method}${r.path.replace(/\{[^}]+\}/g, '*')}"`);
    }
  });

  it("keeps every template within CloudFormation's limits: the route functions live in a nested stack per handler folder", () => {
    const { outdir } = devStack();
    const templates = fs.readdirSync(outdir).filter((f) => f.endsWith('.template.json'));
    const parent = templates.filter((f) => !f.endsWith('.nested.template.json'));
    expect(parent).toHaveLength(1);
    const folders = new Set(ROUTES.map(([, r]) => r.handler.split('/')[0]!));
    expect(templates).toHaveLength(1 + folders.size);
    for (const file of templates) {
      const template = JSON.parse(fs.readFileSync(path.join(outdir, file), 'utf8')) as Json;
      expect(Object.keys(template.Resources).length, file).toBeLessThanOrEqual(500);
      expect(Object.keys(template.Outputs ?? {}).length, file).toBeLessThanOrEqual(200);
      expect(Object.keys(template.Parameters ?? {}).length, file).toBeLessThanOrEqual(200);
      const functions = Object.values(template.Resources as Record<string, Json>).filter((r) => r.Type === 'AWS::Lambda::Function');
      // The parent keeps the caption relay and CDK's helpers; each nested stack holds its folder's route functions only.
      if (file.endsWith('.nested.template.json')) {
        const handlers = functions.map((f) => String(f.Properties.Description).replace(/^Route handler /, ''));
        expect(new Set(handlers.map((h) => h.split('/')[0])).size, file).toBe(1);
      } else {
        expect(functions.filter((f) => String(f.Properties.Description).startsWith('Route handler'))).toEqual([]);
      }
    }
  });

  it("answers API Gateway's own refusals (no such route, its throttle, the web ACL) in JSON {error, code}", () => {
    const responses = new Map(ofType(t, 'AWS::ApiGateway::GatewayResponse').map(([, g]) => [g.Properties.ResponseType as string, g.Properties]));
    expect([...responses.keys()].sort()).toEqual(['DEFAULT_4XX', 'DEFAULT_5XX', 'MISSING_AUTHENTICATION_TOKEN', 'THROTTLED', 'WAF_FILTERED']);
    expect(responses.get('MISSING_AUTHENTICATION_TOKEN')).toMatchObject({ StatusCode: '404' });
    expect(responses.get('THROTTLED')).toMatchObject({ StatusCode: '429' });
    expect(responses.get('WAF_FILTERED')).toMatchObject({ StatusCode: '403' });
    for (const [type, g] of responses) {
      expect(g.ResponseParameters['gatewayresponse.header.content-type'], type).toBe("'application/json; charset=utf-8'");
      const body = g.ResponseTemplates['application/json'] as string;
      // API Gateway fills $context.error.messageString in quoted: the template is JSON with it replaced by a string.
      expect(JSON.parse(body.replace('$context.error.messageString', '"x"')), type).toEqual({ error: expect.any(String), code: expect.any(String) });
    }
  });

  it('has no Lambda functions besides the route handlers, the caption relay and CDK helpers', () => {
    const all = ofType(t, 'AWS::Lambda::Function');
    const helpers = all.filter(([id]) => HELPER_PREFIXES.some((p) => id.startsWith(p)));
    const handlers = all.filter(([id]) => !helpers.some(([h]) => h === id));
    const relay = all.filter(([id]) => id.startsWith('CaptionRelay')).map(([id]) => id);
    expect(relay).toHaveLength(1);
    expect(handlers.map(([id]) => id).sort()).toEqual([...routeFunctions.values(), ...relay].sort());
    const nodeHandlers = all.filter(([, f]) => String(f.Properties.Runtime).startsWith('nodejs') && f.Properties.Environment?.Variables?.TABLE_NAME);
    expect(nodeHandlers).toHaveLength(ROUTES.length + 1);
  });

  it('builds every function with the fixed defaults; a route that holds requests runs HOLD_MARGIN_SECONDS past its hold, under API Gateway\'s 29 s, at the least memory', () => {
    for (const [name, fnId] of routeFunctions) {
      const p = json.Resources[fnId].Properties;
      const hold = (routes[name as keyof typeof routes] as RouteDef).cache?.holdSeconds;
      const timeout = hold ? hold + HOLD_MARGIN_SECONDS : 10;
      expect(timeout).toBeLessThan(29);
      expect(p).toMatchObject({ Runtime: 'nodejs24.x', Architectures: ['arm64'], Handler: 'index.handler', MemorySize: hold ? HOLD_MEMORY_MB : 512, Timeout: timeout });
      const logGroupId = p.LoggingConfig.LogGroup.Ref as string;
      expect(json.Resources[logGroupId]).toMatchObject({ Type: 'AWS::Logs::LogGroup', Properties: { RetentionInDays: 30 } });
      const vars = p.Environment.Variables;
      expect(vars).toMatchObject({ MAIL_TRANSPORT: 'ses', MAIL_FROM: 'Live Transcribe <no-reply@example.com>' });
      expect(vars.TABLE_NAME).toEqual({ Ref: ofType(t, 'AWS::DynamoDB::GlobalTable')[0]![0] });
      expect(JSON.stringify(vars.APP_URL)).toContain(ofType(t, 'AWS::CloudFront::Distribution')[0]![0]);
      // A secret's value never: only the ARNs of the function's own secrets (secrets.test.ts).
      for (const k of Object.keys(vars)) expect(Object.values(SECRETS).map((s) => s.localVariable)).not.toContain(k);
    }
  });

  it('runs the latest Node.js runtime this CDK offers, one the bundles were built for', () => {
    const major = (name: string) => Number(/^nodejs(\d+)\.x$/.exec(name)?.[1]);
    const offered = Runtime.ALL.map((r) => r.name).filter((n) => /^nodejs\d+\.x$/.test(n));
    expect(major(LAMBDA_RUNTIME.name)).toBe(Math.max(...offered.map(major)));
    // esbuild lowers the bundles' syntax to their target: a runtime older than it could not run them.
    expect(Number(/^node(\d+)$/.exec(HANDLER_BUNDLING.target)?.[1])).toBeLessThanOrEqual(major(LAMBDA_RUNTIME.name));
  });

  it('gives every function its own role, with no AWS managed policy: it writes only its own log group', () => {
    const roles = [...routeFunctions.values()].map((fnId) => json.Resources[fnId].Properties.Role['Fn::GetAtt'][0] as string);
    expect(new Set(roles).size).toBe(ROUTES.length);
    for (const [i, fnId] of [...routeFunctions.values()].entries()) {
      const role = json.Resources[roles[i]!].Properties;
      expect(role.AssumeRolePolicyDocument.Statement).toEqual([
        expect.objectContaining({ Effect: 'Allow', Action: 'sts:AssumeRole', Principal: { Service: 'lambda.amazonaws.com' } }),
      ]);
      expect(role.ManagedPolicyArns, fnId).toBeUndefined();
      const statements = statementsOfFunction(t, fnId);
      const logGroupId = json.Resources[fnId].Properties.LoggingConfig.LogGroup.Ref as string;
      expect(actionsOf(statements, 'logs:'), fnId).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
      for (const s of statements.filter((s: Json) => asArray<string>(s.Action).some((a) => a.startsWith('logs:')))) {
        expect(s.Resource, fnId).toEqual({ 'Fn::GetAtt': [logGroupId, 'Arn'] });
      }
    }
  });

  it('grants each function exactly the DynamoDB actions its route lists on the table, and Query on the indexes it lists only', () => {
    const tableId = ofType(t, 'AWS::DynamoDB::GlobalTable')[0]![0];
    const tableArn = { 'Fn::GetAtt': [tableId, 'Arn'] };
    for (const [name, route] of ROUTES) {
      const statements = statementsOfFunction(t, routeFunctions.get(name)!);
      expect(actionsOf(statements, 'dynamodb:'), name).toEqual([...new Set(route.table)].map((a) => `dynamodb:${a}`).sort());
      const dynamo = statements.filter((s: Json) => asArray<string>(s.Action).some((a) => a.startsWith('dynamodb:')));
      const onTable = dynamo.filter((s: Json) => JSON.stringify(s.Resource) === JSON.stringify(tableArn));
      expect(onTable, name).toHaveLength(1);
      const onIndexes = dynamo.filter((s: Json) => !onTable.includes(s));
      const indexes = route.indexes ?? [];
      expect(onIndexes.map((s: Json) => ({ Action: s.Action, Resource: asArray(s.Resource) })), name).toEqual(
        indexes.length === 0 ? [] : [{ Action: 'dynamodb:Query', Resource: indexes.map((i) => ({ 'Fn::Join': ['', [tableArn, `/index/${i}`]] })) }],
      );
    }
    // Only the webhook queries an index (the Stripe customer's user, GSI1); no function gets every index.
    expect(ROUTES.filter(([, r]) => r.indexes?.length).map(([name]) => name)).toEqual(['stripeWebhook']);
    expect(JSON.stringify(allStatements(t)).includes('/index/*'), 'an index/* grant').toBe(false);
  });

  it('grants each passkey route its own table actions, mail only where it mails, the token key, and the site origin WebAuthn checks (APP_URL)', () => {
    const passkeyRoutes = [
      'startPasskeySignIn', 'passkeySignIn', 'recoveryCodeSignIn', 'listPasskeys', 'startPasskeyRegistration',
      'addPasskey', 'removePasskey', 'createRecoveryCodes', 'setPasskeyRequirement',
    ] as const;
    const mailing: readonly string[] = ['addPasskey', 'removePasskey'];
    const distributionId = ofType(t, 'AWS::CloudFront::Distribution')[0]![0];
    for (const name of passkeyRoutes) {
      const fnId = routeFunctions.get(name)!;
      expect(fnId, name).toBeDefined();
      const statements = statementsOfFunction(t, fnId);
      expect(actionsOf(statements, 'dynamodb:'), name).toEqual([...routes[name].table].map((a) => `dynamodb:${a}`).sort());
      expect(actionsOf(statements, 'ses:'), name).toEqual(mailing.includes(name) ? ['ses:SendEmail', 'ses:SendRawEmail'] : []);
      const vars = json.Resources[fnId].Properties.Environment.Variables as Record<string, unknown>;
      // The relying party's id and origin come from APP_URL: the CloudFront domain.
      expect(JSON.stringify(vars.APP_URL), name).toContain(distributionId);
      expect(vars[SECRETS.tokenKey.idVariable], name).toBeDefined();
    }
    // The sign-in routes never Query (a ceremony's user is named by its answer or its second step), and the list only reads.
    for (const name of ['startPasskeySignIn', 'passkeySignIn', 'recoveryCodeSignIn'] as const) expect(routes[name].table, name).not.toContain('Query');
    expect(routes.listPasskeys.table).toEqual(['GetItem', 'Query']);
  });

  it('refuses a route that lists an index without Query', () => {
    expect(() => synth({ siteDir: noSite(), routes: { thing: { ...routes.getMe, indexes: ['GSI1'] } } })).toThrow(/indexes GSI1 without Query/);
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

  it('throttles the stage, and login, register, forgot-password, contact, analytics, the dev password and the live view and pings per method', () => {
    const stages = ofType(t, 'AWS::ApiGateway::Stage');
    expect(stages).toHaveLength(1);
    const [, stage] = stages[0]!;
    expect(stage.Properties.StageName).toBe(API_STAGE_NAME);
    const settings = new Map(
      (stage.Properties.MethodSettings as Json[]).map((m) => [`${m.HttpMethod as string} ${m.ResourcePath as string}`, { ThrottlingBurstLimit: m.ThrottlingBurstLimit, ThrottlingRateLimit: m.ThrottlingRateLimit }]),
    );
    expect(settings.get('* /*')).toEqual({ ThrottlingBurstLimit: DEFAULT_THROTTLE.burstLimit, ThrottlingRateLimit: DEFAULT_THROTTLE.rateLimit });
    const costly = ['login', 'register', 'forgotPassword', 'contact', 'analytics', 'checkDevPassword'] as const;
    const names = [...costly, 'viewLiveShare', 'recordLiveViewer'] as const;
    expect(Object.keys(ROUTE_THROTTLES).sort()).toEqual([...names].sort());
    // CloudFormation's resource path writes each `/` of the route's path as `~1`.
    const settingOf = (r: RouteDef) => settings.get(`${r.method} /${r.path.replaceAll('/', '~1')}`);
    expect(settings.size).toBe(names.length + 1);
    expect(settings.get('POST /~1api~1auth~1login')).toEqual({ ThrottlingBurstLimit: 20, ThrottlingRateLimit: 20 });
    for (const n of names) {
      expect(settingOf(routes[n]), n).toEqual({ ThrottlingBurstLimit: ROUTE_THROTTLES[n].burstLimit, ThrottlingRateLimit: ROUTE_THROTTLES[n].rateLimit });
    }
    for (const n of costly) expect(ROUTE_THROTTLES[n].rateLimit, n).toBeLessThan(DEFAULT_THROTTLE.rateLimit);
    // A crowd of viewers has buckets of its own, no smaller than the stage's.
    for (const n of ['viewLiveShare', 'recordLiveViewer'] as const) expect(ROUTE_THROTTLES[n].rateLimit, n).toBeGreaterThanOrEqual(DEFAULT_THROTTLE.rateLimit);
    for (const n of ['contact', 'forgotPassword', 'checkDevPassword'] as const) {
      expect(ROUTE_THROTTLES[n].rateLimit, n).toBeLessThan(ROUTE_THROTTLES.login.rateLimit);
      expect(ROUTE_THROTTLES[n].burstLimit, n).toBeLessThan(ROUTE_THROTTLES.login.burstLimit);
    }
    // Well above the product's real peak (docs/edge.md), and all of them below the account's 10,000 a second per region.
    expect(DEFAULT_THROTTLE.rateLimit).toBeGreaterThanOrEqual(1_000);
    expect(DEFAULT_THROTTLE.rateLimit + Object.values(ROUTE_THROTTLES).reduce((sum, th) => sum + th.rateLimit, 0)).toBeLessThanOrEqual(10_000);
    // Each login in a burst needs an execution of the login function's reservation.
    expect(ROUTE_THROTTLES.login.burstLimit).toBeLessThanOrEqual(DEFAULT_RESERVED_CONCURRENCY.login!);
  });

  it('derives the throttled route keys from the route table, so a moved path follows', () => {
    const moved = { ...routes, login: { ...routes.login, path: '/api/v2/login' } } as Record<string, RouteDef>;
    const keys = [...routeThrottles(moved).keys()];
    expect(keys).toContain('POST /api/v2/login');
    expect(keys).not.toContain('POST /api/auth/login');
    expect([...routeThrottles({ getMe: routes.getMe }).keys()]).toEqual([]);
    const paths = [...methodThrottles(moved).keys()];
    expect(paths).toContain('/api/v2/login/POST');
    expect(paths).toContain('/api/live/{code}/GET');
    expect(paths).not.toContain('/api/auth/login/POST');
  });
});

describe('REST API from any route table (prod, generic routes, built site, bundled)', () => {
  let t: Template;
  let outdir: string;

  beforeAll(() => {
    ({ t, outdir } = genericProdStack({ bundle: true }));
  });

  it('bundles each handler with the local esbuild: one minified ESM file with the require banner and a map without sources', () => {
    const handlers = ofType(t, 'AWS::Lambda::Function').filter(([, f]) => f.Properties.Environment?.Variables?.TABLE_NAME);
    // The two routes and the caption relay.
    expect(handlers).toHaveLength(3);
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
    const stage = ofType(t, 'AWS::ApiGateway::Stage')[0]![1].Properties;
    expect(stage.MethodSettings).toEqual([expect.objectContaining({ HttpMethod: '*', ResourcePath: '/*', ThrottlingRateLimit: DEFAULT_THROTTLE.rateLimit })]);
    const names = [...alarmsOf(t).keys()];
    expect(names).toEqual(expect.arrayContaining(['Test-api-5xx', 'Test-errors-deleteThing', 'Test-errors-hook', 'Test-lambda-throttles-1']));
    expect(names.some((n) => n.includes('stripe-webhook'))).toBe(false); // webhook alarms follow the route-table name
  });

  it('creates methods from any route table', () => {
    expect([...restApiMethods(t.toJSON().Resources).keys()].sort()).toEqual(['DELETE /transcriptions/{id}', 'POST /stripe/webhook']);
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
