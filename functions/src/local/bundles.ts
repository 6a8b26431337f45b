import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { routes, type RouteDef } from '@app/shared/routes';
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
}

/** The one stack template of a synthesized cloud assembly (`cdk synth`'s output folder). */
function stackTemplate(cdkOut: string): Json {
  const manifestFile = join(cdkOut, 'manifest.json');
  if (!existsSync(manifestFile)) throw new Error(`${cdkOut} holds no synthesized app: run CDK_DISABLE_VERSION_CHECK=1 npx cdk synth --quiet --no-notices`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { artifacts?: Record<string, { type: string; properties?: { templateFile?: string } }> };
  const stacks = Object.values(manifest.artifacts ?? {}).filter((a) => a.type === 'aws:cloudformation:stack' && a.properties?.templateFile);
  if (stacks.length !== 1) throw new Error(`${cdkOut} holds ${stacks.length} stacks; expected exactly one`);
  return JSON.parse(readFileSync(join(cdkOut, stacks[0]!.properties!.templateFile!), 'utf8'));
}

type Resources = Record<string, { Type: string; Properties?: Json; Metadata?: Json }>;

/**
 * What API Gateway runs for each route key (`POST /api/auth/login`), read from the synthesized
 * template as AWS reads it: method -> proxy integration -> Lambda function -> its code asset and handler.
 */
export function bundlesByRouteKey(cdkOut: string): Map<string, Bundle> {
  const resources = stackTemplate(cdkOut).Resources as Resources;
  const out = new Map<string, Bundle>();
  for (const [routeKey, { methodId, functionId: fnId }] of restApiMethods(resources)) {
    const fn = fnId ? resources[fnId] : undefined;
    if (fn?.Type !== 'AWS::Lambda::Function') throw new Error(`route ${routeKey} (${methodId}) is not integrated with a Lambda function`);
    const assetPath = fn.Metadata?.['aws:asset:path'] as string | undefined;
    const [moduleName, exportName] = String(fn.Properties?.Handler ?? '').split('.');
    if (!assetPath || !moduleName || !exportName) throw new Error(`function ${fnId} of ${routeKey} has no bundled code asset`);
    const file = ['.mjs', '.js'].map((ext) => join(cdkOut, assetPath, `${moduleName}${ext}`)).find((f) => existsSync(f));
    if (!file) throw new Error(`the code asset ${assetPath} of ${routeKey} has no ${moduleName}.mjs`);
    out.set(routeKey, { file, exportName });
  }
  return out;
}

/**
 * A handler loader for the local server that runs the synthesized bundles instead of the sources.
 * Every route of the route table must have one; each bundle is imported on first use (a cold start)
 * and reads its configuration from process.env then, as on Lambda.
 */
export function bundleLoader(cdkOut: string): (def: RouteDef) => Promise<LambdaHandler> {
  const bundles = bundlesByRouteKey(cdkOut);
  const missing = Object.values(routes as Record<string, RouteDef>).map((d) => `${d.method} ${d.path}`).filter((k) => !bundles.has(k));
  if (missing.length > 0) throw new Error(`${cdkOut} has no function for ${missing.join(', ')}: synthesize again`);
  const loaded = new Map<string, Promise<LambdaHandler>>();
  return (def) => {
    const key = `${def.method} ${def.path}`;
    let h = loaded.get(key);
    if (!h) {
      const { file, exportName } = bundles.get(key)!;
      h = import(pathToFileURL(file).href).then((m: Record<string, unknown>) => {
        const fn = m[exportName];
        if (typeof fn !== 'function') throw new Error(`${file} exports no ${exportName}`);
        return fn as LambdaHandler;
      });
      loaded.set(key, h);
    }
    return h;
  };
}
