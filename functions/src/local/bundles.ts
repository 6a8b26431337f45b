import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { routes, type RouteDef } from '@app/shared/routes';
import { assemblyTemplate } from '../../../infra/lib/assembly-template.ts';
import { restApiMethods } from '../../../infra/lib/rest-api-methods.ts';
import type { LambdaHandler } from '../lib/http.ts';

/** CloudFormation JSON is untyped. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the template is walked by keys it may or may not have
type Json = any;

export interface Bundle {
  /** The file Lambda loads (`<asset folder>/index.mjs` for the handler `index.handler`). */
  file: string;
  /** The export Lambda calls. */
  exportName: string;
  /** The function's logical id in the template (its name on the fakes of the AWS services: local-aws.ts). */
  functionId: string;
  /** The function's environment variables as the template sets them (a value may be a reference: `{Ref: <secret>}`). */
  environment: Record<string, Json>;
  /** What its role's policies allow: each statement's actions and resources (references as written). */
  permissions: { actions: string[]; resources: Json[] }[];
}

const list = (v: Json): Json[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** The Allow statements of the policies attached to a function's role (`Role: {Fn::GetAtt: [<role>, Arn]}`). */
function rolePermissions(resources: Record<string, { Type: string; Properties?: Json }>, fn: { Properties?: Json }): Bundle['permissions'] {
  const roleId = fn.Properties?.Role?.['Fn::GetAtt']?.[0] as string | undefined;
  if (!roleId) return [];
  const documents: Json[] = (resources[roleId]?.Properties?.Policies ?? []).map((p: Json) => p.PolicyDocument);
  for (const r of Object.values(resources)) {
    if (r.Type === 'AWS::IAM::Policy' && list(r.Properties?.Roles).some((role) => role?.Ref === roleId)) documents.push(r.Properties.PolicyDocument);
  }
  return documents
    .flatMap((d) => list(d?.Statement))
    .filter((st) => st.Effect === 'Allow')
    .map((st) => ({ actions: list(st.Action).map(String), resources: list(st.Resource) }));
}

/** The stack's resources of one CloudFormation type, by logical id. */
export function templateResources(cdkOut: string, type: string): Map<string, Json> {
  const resources = assemblyTemplate(cdkOut).Resources as Record<string, { Type: string; Properties?: Json }>;
  return new Map(Object.entries(resources).flatMap(([id, r]) => (r.Type === type ? [[id, r.Properties ?? {}] as const] : [])));
}

type Resources = Record<string, { Type: string; Properties?: Json; Metadata?: Json }>;

/**
 * What API Gateway runs for each route key (`POST /api/auth/login`), read from the synthesized
 * template as AWS reads it: method -> proxy integration -> Lambda function -> its code asset and handler.
 */
export function bundlesByRouteKey(cdkOut: string): Map<string, Bundle> {
  const resources = assemblyTemplate(cdkOut).Resources as Resources;
  const out = new Map<string, Bundle>();
  for (const [routeKey, { methodId, functionId: fnId }] of restApiMethods(resources)) {
    const fn = fnId ? resources[fnId] : undefined;
    if (fn?.Type !== 'AWS::Lambda::Function') throw new Error(`route ${routeKey} (${methodId}) is not integrated with a Lambda function`);
    const assetPath = fn.Metadata?.['aws:asset:path'] as string | undefined;
    const [moduleName, exportName] = String(fn.Properties?.Handler ?? '').split('.');
    if (!assetPath || !moduleName || !exportName) throw new Error(`function ${fnId} of ${routeKey} has no bundled code asset`);
    const file = ['.mjs', '.js'].map((ext) => join(cdkOut, assetPath, `${moduleName}${ext}`)).find((f) => existsSync(f));
    if (!file) throw new Error(`the code asset ${assetPath} of ${routeKey} has no ${moduleName}.mjs`);
    out.set(routeKey, {
      file,
      exportName,
      functionId: fnId!,
      environment: fn.Properties?.Environment?.Variables ?? {},
      permissions: rolePermissions(resources, fn),
    });
  }
  return out;
}

/**
 * The function an event source mapping of the template feeds (the caption relay, fed by the
 * table's stream), as AWS would run it: its code asset and handler; undefined when there is none.
 */
export function streamBundle(cdkOut: string): Bundle | undefined {
  const resources = assemblyTemplate(cdkOut).Resources as Resources;
  const mapping = Object.values(resources).find((r) => r.Type === 'AWS::Lambda::EventSourceMapping');
  const fnId = mapping?.Properties?.FunctionName?.Ref as string | undefined;
  const fn = fnId ? resources[fnId] : undefined;
  if (!fnId || fn?.Type !== 'AWS::Lambda::Function') return undefined;
  const assetPath = fn.Metadata?.['aws:asset:path'] as string | undefined;
  const [moduleName, exportName] = String(fn.Properties?.Handler ?? '').split('.');
  const file = assetPath && moduleName ? ['.mjs', '.js'].map((ext) => join(cdkOut, assetPath, `${moduleName}${ext}`)).find((f) => existsSync(f)) : undefined;
  if (!file || !exportName) throw new Error(`the stream's function ${fnId} has no bundled code asset`);
  return { file, exportName, functionId: fnId, environment: fn.Properties?.Environment?.Variables ?? {}, permissions: rolePermissions(resources, fn) };
}

/** Loads a bundle's export (a cold start, in its function's scope) and runs each call in that scope. */
export async function loadBundle<F extends (...args: never[]) => unknown>(bundle: Bundle, scope: FunctionScope = (_b, fn) => fn()): Promise<F> {
  const m = (await scope(bundle, () => import(pathToFileURL(bundle.file).href))) as Record<string, unknown>;
  const fn = m[bundle.exportName];
  if (typeof fn !== 'function') throw new Error(`${bundle.file} exports no ${bundle.exportName}`);
  return ((...args: Parameters<F>) => scope(bundle, () => (fn as F)(...args))) as unknown as F;
}

/** Runs `fn` (a bundle's cold start or one of its invocations) as that bundle's function: local-aws.ts gives each its own environment. */
export type FunctionScope = <T>(bundle: Bundle, fn: () => T) => T;

/**
 * A handler loader for the local server that runs the synthesized bundles instead of the sources.
 * Every route of the route table must have one; each bundle is imported on first use (a cold start)
 * and reads its configuration from process.env then, as on Lambda; `scope` runs the import and
 * every invocation (by default, in the process's own environment).
 */
export function bundleLoader(cdkOut: string, scope: FunctionScope = (_bundle, fn) => fn()): (def: RouteDef) => Promise<LambdaHandler> {
  const bundles = bundlesByRouteKey(cdkOut);
  const missing = Object.values(routes as Record<string, RouteDef>).map((d) => `${d.method} ${d.path}`).filter((k) => !bundles.has(k));
  if (missing.length > 0) throw new Error(`${cdkOut} has no function for ${missing.join(', ')}: synthesize again`);
  const loaded = new Map<string, Promise<LambdaHandler>>();
  return (def) => {
    const key = `${def.method} ${def.path}`;
    let h = loaded.get(key);
    if (!h) {
      const bundle = bundles.get(key)!;
      const { file, exportName } = bundle;
      h = scope(bundle, () => import(pathToFileURL(file).href)).then((m: Record<string, unknown>) => {
        const fn = m[exportName];
        if (typeof fn !== 'function') throw new Error(`${file} exports no ${exportName}`);
        const handler = fn as LambdaHandler;
        return (event, context) => scope(bundle, () => handler(event, context));
      });
      loaded.set(key, h);
    }
    return h;
  };
}
