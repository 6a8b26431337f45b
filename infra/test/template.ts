import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App, Aspects, type IAspect } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { expect, inject } from 'vitest';
import { routes, type RouteDef } from '@app/shared/routes';
import { assemblyTemplate } from '../lib/assembly-template.ts';
import { repoRoot } from '../lib/paths.ts';
import { restApiMethods } from '../lib/rest-api-methods.ts';
import { LiveTranscribeStack, type LiveTranscribeStackProps } from '../lib/stack.ts';

/**
 * What the infrastructure tests share: the stacks they synthesize and readers of the
 * CloudFormation template. A stack is synthesized on first use and kept: once per test file
 * at most, and once per run as the infra project runs its files in one worker sharing this
 * module (vitest.config.ts).
 */

/** CloudFormation JSON is untyped. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the template is walked by keys it may or may not have
export type Json = any;
export interface Resource {
  Type: string;
  Properties?: Json;
}

export const ROUTES = Object.entries(routes as Record<string, RouteDef>);
export const keyOf = (r: RouteDef) => `${r.method} ${r.path}`;

/** A new folder in the run's temporary folder (global-setup.ts removes it after the run). */
export const tempDir = (prefix: string): string => fs.mkdtempSync(path.join(inject('infraTempRoot'), prefix));

/** Same feature flags as `cdk synth` (cdk.json), so the tests see the template the CLI makes. */
const cdkContext = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> }).context;

/**
 * Synthesizes the stack. Bundling (esbuild, ~2 s a function) is skipped unless asked for: the
 * template is the same either way, and one small bundled synth proves bundling works.
 */
export function synthApp(
  props: Partial<LiveTranscribeStackProps> = {},
  { bundle = false, aspects = [] }: { bundle?: boolean; aspects?: IAspect[] } = {},
): { template: Template; outdir: string } {
  const outdir = tempDir('cdk-test-');
  const context = { ...cdkContext, ...(bundle ? { 'aws:cdk:enable-asset-metadata': true } : { 'aws:cdk:bundling-stacks': [] }) };
  const app = new App({ outdir, context });
  new LiveTranscribeStack(app, 'Test', { stage: 'dev', mailDomain: 'example.com', ...props });
  for (const aspect of aspects) Aspects.of(app).add(aspect);
  app.synth();
  // The stack with its nested stacks merged in, as the local server's bundle loader reads cdk.out.
  return { template: Template.fromJSON(assemblyTemplate(outdir)), outdir };
}
export const synth = (props: Partial<LiveTranscribeStackProps> = {}, opts: { bundle?: boolean } = {}): Template => synthApp(props, opts).template;

/** An empty folder: no built site, so the CSP hashes come from web/index.html. */
export const noSite = () => tempDir('nosite-');

/** A built site: index.html (with `inline` as an inline script when given) and one hashed asset. */
export function builtSite(inline?: string): string {
  const site = tempDir('site-');
  fs.mkdirSync(path.join(site, 'assets'));
  const script = inline === undefined ? '' : `<script>${inline}</script>`;
  fs.writeFileSync(path.join(site, 'index.html'), `<!doctype html><title>x</title>${script}<script type="module" src="/assets/index-abc.js"></script>`);
  fs.writeFileSync(path.join(site, 'assets', 'index-abc.js'), 'console.log(1)');
  fs.writeFileSync(path.join(site, 'assets', 'index-abc.js.map'), '{"version":3,"sources":["secret.ts"],"mappings":""}');
  return site;
}

// ---- the stacks under test ---------------------------------------------------------------

export interface Synthesized {
  t: Template;
  json: Json;
  outdir: string;
}
const made = new Map<string, Synthesized>();
function once(key: string, make: () => { template: Template; outdir: string }): Synthesized {
  let s = made.get(key);
  if (!s) {
    const { template, outdir } = make();
    s = { t: template, json: template.toJSON(), outdir };
    made.set(key, s);
  }
  return s;
}

/** Dev, the full route table, no built site; with each route's function by route-table name. */
export function devStack(): Synthesized & { routeFunctions: Map<string, string> } {
  const s = once('dev', () => synthApp({ siteDir: noSite() }));
  return { ...s, routeFunctions: new Map(ROUTES.map(([name, r]) => [name, functionOfRoute(s.t, `${r.method} ${r.path}`)])) };
}

/** Two generic routes: any table entry becomes a route; a path parameter, DELETE, and auth 'stripe' need nothing special. */
export const GENERIC_ROUTES: Record<string, RouteDef> = {
  deleteThing: { ...routes.getMe, method: 'DELETE', path: '/transcriptions/{id}', auth: 'user', table: ['Query', 'DeleteItem', 'BatchWriteItem'] },
  hook: { ...routes.getMe, method: 'POST', path: '/stripe/webhook', handler: routes.stripeWebhook.handler, auth: 'stripe', table: ['GetItem', 'PutItem'], mail: true },
};

/** Prod with the generic routes, a built site, a custom domain and a mail domain; `bundle` builds the handlers too. */
export function genericProdStack({ bundle = false } = {}): Synthesized {
  return once(`generic-${bundle}`, () =>
    synthApp(
      {
        stage: 'prod',
        routes: GENERIC_ROUTES,
        siteDir: builtSite(),
        mailDomain: 'mail.example.org',
        domainName: 'app.example.org',
        certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/00000000-0000-0000-0000-000000000000',
      },
      { bundle },
    ),
  );
}

/** The built page's inline script and the analytics origins of the prod stack with all context. */
export const PROD_INLINE_SCRIPT = "document.documentElement.classList.add('dark')";
export const PROD_ANALYTICS = ['https://*.googletagmanager.com', 'https://*.google-analytics.com', 'https://*.clarity.ms'];

/** The props of the production stack under test: the full route table, a built site, every context value set. */
export const prodProps = (): Partial<LiveTranscribeStackProps> => ({
  stage: 'prod',
  siteDir: builtSite(PROD_INLINE_SCRIPT),
  domainName: 'live.example.org',
  certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/11111111-1111-1111-1111-111111111111',
  alarmEmail: 'ops@example.org',
  analyticsOrigins: PROD_ANALYTICS,
  surveyOrigin: 'https://forms.example.net',
});

/** Prod, the full route table, every context value set (alarm email, analytics and survey origins). */
export function prodStack(): Synthesized {
  return once('prod', () => synthApp(prodProps()));
}

// ---- template readers --------------------------------------------------------------------

export const sha256Source = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The CSP of the template's response-headers policy, as directive -> sources. */
export function cspOf(t: Template): Map<string, string[]> {
  const policies = ofType(t, 'AWS::CloudFront::ResponseHeadersPolicy');
  expect(policies).toHaveLength(1);
  const csp = policies[0]![1].Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy as string;
  return new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name!, sources]));
}

export const alarmsOf = (t: Template) => new Map(ofType(t, 'AWS::CloudWatch::Alarm').map(([id, a]) => [a.Properties.AlarmName as string, { id, ...a.Properties }]));
/** The metrics (MetricStat.Metric) an alarm reads, by query id. */
export const metricsOf = (alarm: Json): Record<string, Json> =>
  Object.fromEntries(asArray<Json>(alarm.Metrics).filter((m) => m.MetricStat).map((m) => [m.Id, { ...m.MetricStat.Metric, Stat: m.MetricStat.Stat, Period: m.MetricStat.Period }]));
export const dims = (metric: Json): Record<string, Json> => Object.fromEntries(asArray<Json>(metric.Dimensions).map((d) => [d.Name, d.Value]));

export const ofType = (t: Template, type: string): [string, Resource][] =>
  Object.entries(t.toJSON().Resources as Record<string, Resource>).filter(([, r]) => r.Type === type);

export const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** Logical id of the function behind `METHOD /path`, following method -> proxy integration -> function (as the local server's bundle loader does). */
export function functionOfRoute(t: Template, routeKey: string): string {
  const method = restApiMethods(t.toJSON().Resources).get(routeKey);
  if (!method) throw new Error(`no API method ${routeKey}`);
  if (!method.functionId) throw new Error(`the method ${routeKey} is not a Lambda proxy integration`);
  return method.functionId;
}

/** Every statement of the inline policies attached to the role of function `fnId`. */
export function statementsOfFunction(t: Template, fnId: string): Json[] {
  const fn = t.toJSON().Resources[fnId] as Resource;
  const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
  const role = t.toJSON().Resources[roleId] as Resource;
  const inline = asArray<Json>(role.Properties.Policies).flatMap((p: Json) => asArray<Json>(p.PolicyDocument.Statement));
  const attached = ofType(t, 'AWS::IAM::Policy')
    .filter(([, p]) => asArray<Json>(p.Properties.Roles).some((r: Json) => r.Ref === roleId))
    .flatMap(([, p]) => asArray<Json>(p.Properties.PolicyDocument.Statement));
  return [...inline, ...attached];
}

export const actionsOf = (statements: Json[], prefix: string): string[] =>
  [...new Set(statements.flatMap((s: Json) => asArray<string>(s.Action)).filter((a) => a.startsWith(prefix)))].sort();

/** Every IAM statement anywhere in the template (policies, roles, managed policies, resource policies). */
export function allStatements(t: Template): Json[] {
  const out: Json[] = [];
  for (const [, r] of Object.entries(t.toJSON().Resources as Record<string, Resource>)) {
    const p = r.Properties ?? {};
    if (p.PolicyDocument) out.push(...asArray(p.PolicyDocument.Statement));
    for (const pol of asArray<Json>(p.Policies)) out.push(...asArray(pol.PolicyDocument?.Statement));
  }
  return out;
}
