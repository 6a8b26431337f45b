import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type RouteDef } from '@app/shared/routes';
import { env } from '../src/lib/env.ts';
import { bundleLoader, bundlesByRouteKey } from '../src/local/bundles.ts';
import { startLocalAws } from '../src/local/local-aws.ts';

/**
 * LOCAL_HANDLERS=bundles: the local server finds each route's code in a synthesized cloud assembly
 * the way API Gateway and Lambda do (method -> proxy integration -> function -> asset + handler). The
 * assembly here is written by hand in the shape `cdk synth` writes (the real one is exercised by
 * `npm run test:artifacts`); each "bundle" answers with its own route key.
 */
const ROUTES = Object.values(routes as Record<string, RouteDef>);
const key = (r: RouteDef) => `${r.method} ${r.path}`;
let dir: string;

/** What a function of `assembly` gets beyond its code: its environment variables and its role's policy statements. */
interface FunctionSetup {
  environment?: Record<string, unknown>;
  statements?: { Action: string | string[]; Resource: unknown }[];
}

async function assembly(
  name: string,
  entries: RouteDef[],
  { handler = 'index.handler', ext = '.mjs', body = (r: RouteDef) => JSON.stringify(key(r)), functions = (_i: number): FunctionSetup => ({}), resources: more = {} } = {},
): Promise<string> {
  const out = join(dir, name);
  await mkdir(out, { recursive: true });
  const resources: Record<string, unknown> = { RestApi: { Type: 'AWS::ApiGateway::RestApi', Properties: {} }, ...more };
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
    await writeFile(join(out, asset, `${file}${ext}`), `export const ${exported} = async () => ({ statusCode: 200, body: ${body(r)} });\n`);
    const { environment, statements } = functions(i);
    resources[`Fn${i}`] = {
      Type: 'AWS::Lambda::Function',
      Properties: { Handler: handler, Runtime: 'nodejs22.x', Role: { 'Fn::GetAtt': [`Role${i}`, 'Arn'] }, ...(environment ? { Environment: { Variables: environment } } : {}) },
      Metadata: { 'aws:asset:path': asset, 'aws:asset:property': 'Code' },
    };
    resources[`Role${i}`] = { Type: 'AWS::IAM::Role', Properties: {} };
    if (statements) {
      resources[`Role${i}Policy`] = {
        Type: 'AWS::IAM::Policy',
        Properties: { Roles: [{ Ref: `Role${i}` }], PolicyDocument: { Version: '2012-10-17', Statement: statements.map((st) => ({ Effect: 'Allow', ...st })) } },
      };
    }
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
    expect(bundlesByRouteKey(out).get(key(first))).toEqual({ file: join(out, 'asset.0000', 'main.js'), exportName: 'run', functionId: 'Fn0', environment: {}, permissions: [] });
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

describe('the bundles on the local Secrets Manager and SES (local-aws.ts)', () => {
  /** Each bundle answers what its process.env shows it. */
  const seen = `JSON.stringify(Object.fromEntries(['TOKEN_KEY_SECRET_ID', 'ORIGIN_SECRET_ID', 'BOT_CHECK_SECRET_ID', 'JWT_SECRET', 'AWS_ACCESS_KEY_ID', 'MAIL_TRANSPORT', 'AWS_ENDPOINT_URL_SECRETS_MANAGER', 'TABLE_NAME'].map((k) => [k, process.env[k] ?? null])))`;
  const secretResources = {
    OriginSecret: { Type: 'AWS::SecretsManager::Secret', Properties: { Name: 'live-transcribe/dev/origin', GenerateSecretString: { PasswordLength: 64 } } },
    TokenKeySecret: { Type: 'AWS::SecretsManager::Secret', Properties: { Name: 'live-transcribe/dev/token-key', GenerateSecretString: { PasswordLength: 64 } } },
    BotCheckSecret: { Type: 'AWS::SecretsManager::Secret', Properties: { Name: 'live-transcribe/dev/bot-check' } },
  };
  /** The first function reads the token key and the origin secret and may send mail; every other one the origin secret only. */
  const functions = (i: number): FunctionSetup =>
    i === 0
      ? {
          environment: { TABLE_NAME: { Ref: 'Table' }, ORIGIN_SECRET_ID: { Ref: 'OriginSecret' }, TOKEN_KEY_SECRET_ID: { Ref: 'TokenKeySecret' } },
          statements: [
            { Action: 'secretsmanager:GetSecretValue', Resource: [{ Ref: 'OriginSecret' }, { Ref: 'TokenKeySecret' }] },
            { Action: ['ses:SendEmail', 'ses:SendRawEmail'], Resource: '*' },
          ],
        }
      : { environment: { ORIGIN_SECRET_ID: { Ref: 'OriginSecret' } }, statements: [{ Action: 'secretsmanager:GetSecretValue', Resource: { Ref: 'OriginSecret' } }] };

  it("gives each function the template's secret ids as ARNs of the fake, its own credentials, and only its role's grants", async () => {
    const out = await assembly('aws', ROUTES, { body: () => seen, functions, resources: secretResources });
    const aws = await startLocalAws({ cdkOut: out, outboxDir: join(dir, 'aws-outbox') });
    try {
      const load = bundleLoader(out, aws.scope);
      const view = async (r: RouteDef) => JSON.parse((await (await load(r))({} as never)).body!) as Record<string, string | null>;
      const [first, second] = [await view(ROUTES[0]!), await view(ROUTES[1]!)];
      const arn = (name: string) => aws.secretsManager.arnOf(`live-transcribe/dev/${name}`);
      expect(first).toEqual({
        TOKEN_KEY_SECRET_ID: arn('token-key'),
        ORIGIN_SECRET_ID: arn('origin'),
        BOT_CHECK_SECRET_ID: null,
        JWT_SECRET: null,
        AWS_ACCESS_KEY_ID: 'Fn0',
        MAIL_TRANSPORT: 'ses',
        AWS_ENDPOINT_URL_SECRETS_MANAGER: aws.secretsManager.endpoint,
        // Variables other than the secrets' are the local ones (the process's), not the template's.
        TABLE_NAME: process.env.TABLE_NAME!,
      });
      expect(second).toMatchObject({ TOKEN_KEY_SECRET_ID: null, ORIGIN_SECRET_ID: arn('origin'), JWT_SECRET: null, AWS_ACCESS_KEY_ID: 'Fn1' });
      // Outside a function the process keeps its own environment.
      expect(process.env.TOKEN_KEY_SECRET_ID).toBeUndefined();
      expect(process.env.JWT_SECRET).toMatch(/^test-secret/);

      const sm = (caller: string) => new SecretsManagerClient({ endpoint: aws.secretsManager.endpoint, region: 'us-east-1', credentials: { accessKeyId: caller, secretAccessKey: 'local' } });
      // The token key is the local one (JWT_SECRET); the origin secret is generated, as the stack generates it.
      expect((await sm('Fn0').send(new GetSecretValueCommand({ SecretId: first.TOKEN_KEY_SECRET_ID! }))).SecretString).toBe(process.env.JWT_SECRET);
      const origin = (await sm('Fn1').send(new GetSecretValueCommand({ SecretId: second.ORIGIN_SECRET_ID! }))).SecretString;
      expect(origin).toBe(aws.originSecret);
      expect(origin!.length).toBeGreaterThanOrEqual(32);
      await expect(sm('Fn1').send(new GetSecretValueCommand({ SecretId: arn('token-key') }))).rejects.toMatchObject({ name: 'AccessDeniedException' });

      const send = (caller: string) =>
        new SESv2Client({ endpoint: aws.ses.endpoint, region: 'us-east-1', credentials: { accessKeyId: caller, secretAccessKey: 'local' } }).send(
          new SendEmailCommand({ FromEmailAddress: env().MAIL_FROM, Destination: { ToAddresses: ['a@example.com'] }, Content: { Simple: { Subject: { Data: 's' }, Body: { Text: { Data: 't' } } } } }),
        );
      await expect(send('Fn0')).resolves.toMatchObject({ MessageId: expect.any(String) });
      await expect(send('Fn1')).rejects.toMatchObject({ name: 'AccessDeniedException' });
    } finally {
      await aws.stop();
    }
  });

  it('refuses a template whose secret id variable is not a reference to one of its secrets', async () => {
    const out = await assembly('aws-bad', ROUTES.slice(0, 1), {
      functions: () => ({ environment: { TOKEN_KEY_SECRET_ID: 'arn:aws:secretsmanager:us-east-1:1:secret:elsewhere' } }),
      resources: secretResources,
    });
    const aws = await startLocalAws({ cdkOut: out, outboxDir: join(dir, 'aws-outbox') });
    try {
      const bundle = bundlesByRouteKey(out).get(key(ROUTES[0]!))!;
      expect(() => aws.functionEnv(bundle)).toThrow(/Fn0 sets TOKEN_KEY_SECRET_ID to something other than a secret of the stack/);
    } finally {
      await aws.stop();
    }
  });
});
