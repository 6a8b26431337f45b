import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** CloudFormation JSON is untyped. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the template is walked by keys it may or may not have
type Json = any;

const NESTED_STACK = 'AWS::CloudFormation::Stack';

/** A file of an asset manifest (`<stack>.assets.json`): where it is in the assembly and its object key once published. */
interface AssetFile {
  source: { path: string };
  destinations: Record<string, { objectKey: string }>;
}

/**
 * The one stack of a synthesized cloud assembly (`cdk synth`'s output folder) as a single
 * template, its nested stacks merged in as CloudFormation resolves them: each nested resource
 * beside the parent's, a nested parameter replaced by the value the parent passes, and a parent's
 * `Fn::GetAtt [<nested stack>, Outputs.<name>]` by that output's value. What reads the
 * template (the local server's bundle loader, the infrastructure tests) then follows references
 * across the nesting as AWS does.
 */
export function assemblyTemplate(cdkOut: string): Json {
  const manifestFile = join(cdkOut, 'manifest.json');
  if (!existsSync(manifestFile)) throw new Error(`${cdkOut} holds no synthesized app: run CDK_DISABLE_VERSION_CHECK=1 npx cdk synth --quiet --no-notices`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as {
    artifacts?: Record<string, { type: string; properties?: { templateFile?: string; file?: string } }>;
  };
  const artifacts = Object.values(manifest.artifacts ?? {});
  const stacks = artifacts.filter((a) => a.type === 'aws:cloudformation:stack' && a.properties?.templateFile);
  if (stacks.length !== 1) throw new Error(`${cdkOut} holds ${stacks.length} stacks; expected exactly one`);
  const read = (file: string): Json => JSON.parse(readFileSync(join(cdkOut, file), 'utf8'));
  // A nested stack's template is a file asset of its parent: its TemplateURL names the asset's object key.
  let assetFiles: Map<string, string> | undefined;
  const nestedTemplate = (stackId: string, stack: Json): Json => {
    assetFiles ??= new Map(
      artifacts
        .filter((a) => a.type === 'cdk:asset-manifest' && a.properties?.file)
        .flatMap((a) => Object.values((read(a.properties!.file!) as { files?: Record<string, AssetFile> }).files ?? {}))
        .flatMap((file) => Object.values(file.destinations).map((d) => [d.objectKey, file.source.path] as const)),
    );
    const url = JSON.stringify(stack.Properties?.TemplateURL ?? '');
    const key = [...assetFiles.keys()].find((k) => url.includes(k));
    if (!key) throw new Error(`${cdkOut}: no template asset for the nested stack ${stackId}`);
    return read(assetFiles.get(key)!);
  };
  return flattenNested(read(stacks[0]!.properties!.templateFile!), nestedTemplate);
}

/** `template` with each nested stack resource replaced by that stack's resources (recursively; see assemblyTemplate). */
export function flattenNested(template: Json, nestedTemplate: (stackId: string, stack: Json) => Json): Json {
  const resources: Record<string, Json> = { ...template.Resources };
  const outputs = new Map<string, Map<string, Json>>();
  for (const [stackId, stack] of Object.entries(template.Resources as Record<string, Json>)) {
    if (stack.Type !== NESTED_STACK) continue;
    const nested = flattenNested(nestedTemplate(stackId, stack), nestedTemplate);
    const passed: Record<string, Json> = stack.Properties?.Parameters ?? {};
    const resolve = (v: Json): Json => replace(v, (x) => (isRef(x) && x.Ref in (nested.Parameters ?? {}) ? param(stackId, x.Ref, passed) : undefined));
    delete resources[stackId];
    for (const [id, r] of Object.entries(nested.Resources as Record<string, Json>)) {
      if (r.Type === 'AWS::CDK::Metadata') continue; // CDK's usage report, one per template
      if (id in resources) throw new Error(`the nested stack ${stackId} and its parent both have a resource ${id}`);
      resources[id] = resolve(r);
    }
    outputs.set(stackId, new Map(Object.entries((nested.Outputs ?? {}) as Record<string, Json>).map(([name, o]) => [name, resolve(o.Value)])));
  }
  const out = replace({ ...template, Resources: resources }, (x) => {
    const getAtt = x?.['Fn::GetAtt'];
    if (!Array.isArray(getAtt) || !outputs.has(getAtt[0])) return undefined;
    const name = String(getAtt[1]).replace(/^Outputs\./, '');
    const value = outputs.get(getAtt[0])!.get(name);
    if (value === undefined) throw new Error(`the nested stack ${getAtt[0]} has no output ${name}`);
    return value;
  });
  // A dependency on a nested stack is one on what it held: the merged resources are all there already.
  for (const r of Object.values(out.Resources as Record<string, Json>)) {
    if (r.DependsOn === undefined) continue;
    const on = (Array.isArray(r.DependsOn) ? r.DependsOn : [r.DependsOn]).filter((d: string) => !outputs.has(d));
    if (on.length === 0) delete r.DependsOn;
    else r.DependsOn = on;
  }
  return out;
}

const isRef = (x: Json): x is { Ref: string } => x !== null && typeof x === 'object' && !Array.isArray(x) && Object.keys(x).length === 1 && typeof x.Ref === 'string';

function param(stackId: string, name: string, passed: Record<string, Json>): Json {
  if (!(name in passed)) throw new Error(`the nested stack ${stackId} is given no value for its parameter ${name}`);
  return passed[name];
}

/** A deep copy of `v` with each value `f` answers for replaced by the answer (not walked further). */
function replace(v: Json, f: (x: Json) => Json): Json {
  const r = f(v);
  if (r !== undefined) return r;
  if (Array.isArray(v)) return v.map((x) => replace(x, f));
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, replace(x, f)]));
  return v;
}
