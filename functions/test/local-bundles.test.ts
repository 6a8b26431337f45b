import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type RouteDef } from '@app/shared/routes';
import { bundleLoader, bundlesByRouteKey } from '../src/local/bundles.ts';

/**
 * LOCAL_HANDLERS=bundles: the local server finds each route's code in a synthesized cloud assembly
 * the way API Gateway and Lambda do (route -> integration -> function -> asset + handler). The
 * assembly here is written by hand in the shape `cdk synth` writes (the real one is exercised by
 * `npm run test:artifacts`); each "bundle" answers with its own route key.
 */
const ROUTES = Object.values(routes as Record<string, RouteDef>);
const key = (r: RouteDef) => `${r.method} ${r.path}`;
let dir: string;

async function assembly(name: string, entries: RouteDef[], { handler = 'index.handler', ext = '.mjs' } = {}): Promise<string> {
  const out = join(dir, name);
  await mkdir(out, { recursive: true });
  const resources: Record<string, unknown> = { HttpApi: { Type: 'AWS::ApiGatewayV2::Api', Properties: {} } };
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
    resources[`Integration${i}`] = {
      Type: 'AWS::ApiGatewayV2::Integration',
      Properties: { IntegrationType: 'AWS_PROXY', IntegrationUri: { 'Fn::GetAtt': [`Fn${i}`, 'Arn'] } },
    };
    resources[`Route${i}`] = {
      Type: 'AWS::ApiGatewayV2::Route',
      Properties: { RouteKey: key(r), Target: { 'Fn::Join': ['', ['integrations/', { Ref: `Integration${i}` }]] } },
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
