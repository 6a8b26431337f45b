import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type RouteDef } from '@app/shared/routes';
import { bundleLoader, bundlesByRouteKey } from '../src/local/bundles.ts';

/**
 * LOCAL_HANDLERS=bundles: the local server finds each route's code in a synthesized cloud assembly
 * the way API Gateway and Lambda do (method -> proxy integration -> function -> asset + handler). The
 * assembly here is written by hand in the shape `cdk synth` writes (the real one is exercised by
 * `npm run test:artifacts`); each "bundle" answers with its own route key.
 */
const ROUTES = Object.values(routes as Record<string, RouteDef>);
const key = (r: RouteDef) => `${r.method} ${r.path}`;
let dir: string;

async function assembly(name: string, entries: RouteDef[], { handler = 'index.handler', ext = '.mjs' } = {}): Promise<string> {
  const out = join(dir, name);
  await mkdir(out, { recursive: true });
  const resources: Record<string, unknown> = { RestApi: { Type: 'AWS::ApiGateway::RestApi', Properties: {} } };
  // One AWS::ApiGateway::Resource per path segment, under its parent (the root: RestApi's RootResourceId).
  const resourceIds = new Map<string, string>();
  const resourceOf = (path: string): unknown => {
    if (path === '') return { 'Fn::GetAtt': ['RestApi', 'RootResourceId'] };
    let id = resourceIds.get(path);
    if (!id) {
      id = `Resource${resourceIds.size}`;
      resourceIds.set(path, id);
      const cut = path.lastIndexOf('/');
      resources[id] = { Type: 'AWS::ApiGateway::Resource', Properties: { ParentId: resourceOf(path.slice(0, cut)), PathPart: path.slice(cut + 1), RestApiId: { Ref: 'RestApi' } } };
    }
    return { Ref: id };
  };
  for (const [i, r] of entries.entries()) {
    const asset = `asset.${i.toString().padStart(4, '0')}`;
    await mkdir(join(out, asset));
    const [file, exported] = handler.split('.');
    await writeFile(join(out, asset, `${file}${ext}`), `export const ${exported} = async () => ({ statusCode: 200, body: ${JSON.stringify(key(r))} });\n`);
    resources[`Fn${i}`] = {
      Type: 'AWS::Lambda::Function',
      Properties: { Handler: handler, Runtime: 'nodejs22.x' },
      Metadata: { 'aws:asset:path': asset, 'aws:asset:property': 'Code' },
    };
    resources[`Method${i}`] = {
      Type: 'AWS::ApiGateway::Method',
      Properties: {
        HttpMethod: r.method,
        ResourceId: resourceOf(r.path),
        RestApiId: { Ref: 'RestApi' },
        Integration: {
          Type: 'AWS_PROXY',
          IntegrationHttpMethod: 'POST',
          Uri: { 'Fn::Join': ['', ['arn:aws:apigateway:us-east-1:lambda:path/2015-03-31/functions/', { 'Fn::GetAtt': [`Fn${i}`, 'Arn'] }, '/invocations']] },
        },
      },
    };
  }
  await writeFile(join(out, 'Stack.template.json'), JSON.stringify({ Resources: resources }));
  await writeFile(
    join(out, 'manifest.json'),
    JSON.stringify({
      artifacts: {
        'Stack.assets': { type: 'cdk:asset-manifest', properties: { file: 'Stack.assets.json' } },
        Stack: { type: 'aws:cloudformation:stack', properties: { templateFile: 'Stack.template.json' } },
      },
    }),
  );
  return out;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bundles-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('synthesized bundles', () => {
  it("maps every route key to its function's code asset and handler export", async () => {
    const out = await assembly('all', ROUTES);
    const bundles = bundlesByRouteKey(out);
    expect([...bundles.keys()].sort()).toEqual(ROUTES.map(key).sort());
    const load = bundleLoader(out);
    for (const r of ROUTES) {
      const handler = await load(r);
      expect((await handler({} as never)).body, key(r)).toBe(key(r));
    }
  });

  it('follows the handler setting (module and export name, .js too)', async () => {
    const out = await assembly('named', ROUTES, { handler: 'main.run', ext: '.js' });
    const first = ROUTES[0]!;
    expect(bundlesByRouteKey(out).get(key(first))).toEqual({ file: join(out, 'asset.0000', 'main.js'), exportName: 'run' });
    expect((await (await bundleLoader(out)(first))({} as never)).body).toBe(key(first));
  });

  it('refuses an assembly that lacks a route of the route table (synthesized before the route existed)', async () => {
    const out = await assembly('stale', ROUTES.slice(1));
    expect(() => bundleLoader(out)).toThrow(`has no function for ${key(ROUTES[0]!)}: synthesize again`);
  });

  it('refuses a folder that holds no synthesized app', async () => {
    expect(() => bundleLoader(join(dir, 'nothing'))).toThrow(/holds no synthesized app/);
  });
});
