import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ensureTable } from '../db/table.ts';
import { resetEnv } from '../lib/env.ts';
import { resetSecrets } from '../lib/secrets.ts';
import { parseOrigins } from '../../../infra/lib/security-headers.ts';
import { bundleLoader, loadBundle, streamBundle } from './bundles.ts';
import { captionReceiver, CAPTION_RECEIVER_PATH, type ReceivedCaption } from './caption-receiver.ts';
import { startStreamRelay, type StreamHandler, type StreamRelay } from './stream-relay.ts';
import { startDynamoLocal, type DynamoLocal } from './dynamo.ts';
import { startLocalAws, type LocalAws } from './local-aws.ts';
import { startPwnedPasswordsFake, type PwnedPasswordsFake } from './pwned-passwords-fake.ts';
import { startLocalServer, type LocalPage, type LocalServer } from './server.ts';

export interface LocalAppOptions {
  /** Where data lives (DynamoDB files, outbox, generated secrets). */
  dataDir: string;
  port: number;
  /** The address to listen on (startLocalServer's default: this machine only). */
  host?: string;
  webDist: string;
  /** Keep the store in memory (tests) instead of under dataDir. */
  inMemory?: boolean;
  /** The store serves a sustained load (a benchmark's crowd): DynamoDB Local on its sustained JVM options (dynamo.ts). */
  sustainedStore?: boolean;
  /**
   * A DynamoDB Local the caller has already started (startDynamoLocal), so that its start overlaps
   * the caller's loading of this module; used instead of starting one, and stopped with the app.
   */
  dynamo?: Promise<DynamoLocal>;
  localPages?: LocalPage[];
  /** Run the route handlers from the bundles synthesized into this folder (cdk.out), not the sources. */
  bundlesFrom?: string;
  /**
   * The table's stream and the caption relay it feeds; on unless false. DynamoDB Local keeps the
   * stream in its own store on every write (about 0.55 ms of its CPU a write, nearly doubling a
   * small PutItem's), and the relay polls it four times a second, as Lambda does; on AWS the
   * stream costs the write nothing and Lambda polls it. A benchmark that sends no captions (the
   * live crowd) turns it off.
   */
  tableStream?: boolean;
}

/**
 * `LOCAL_HANDLERS=bundles`: the folder whose synthesized bundles the local server runs (`CDK_OUT`,
 * default cdk.out under `root`); unset or `source`: none, the TypeScript sources run.
 */
export function bundlesFromEnv(root: string): string | undefined {
  const mode = process.env.LOCAL_HANDLERS ?? 'source';
  if (mode === 'source') return undefined;
  if (mode !== 'bundles') throw new Error(`LOCAL_HANDLERS must be source or bundles; got "${mode}"`);
  return resolve(root, process.env.CDK_OUT ?? 'cdk.out');
}

export interface LocalApp {
  url: string;
  dynamo: DynamoLocal;
  server: LocalServer;
  outboxDir: string;
  /** Where the route handlers come from when not the sources (see bundlesFromEnv). */
  bundlesFrom?: string;
  /** With the bundles: the local Secrets Manager and SES they call (local-aws.ts). */
  aws?: LocalAws;
  /** The local Pwned Passwords range API the breach check calls, unless PWNED_PASSWORDS_URL names another. */
  pwned: PwnedPasswordsFake;
  /** What the local caption receiver (standing in for YouTube and Zoom) received. */
  captions: ReceivedCaption[];
  /** The caption relay fed by the table's stream, as Lambda's event source mapping feeds it on AWS. */
  relay: StreamRelay;
  stop: () => Promise<void>;
}

/** A secret generated once and kept in the data folder, so tokens survive restarts. */
async function persistentSecret(dataDir: string, name: string): Promise<string> {
  const file = join(dataDir, name);
  try {
    const existing = (await readFile(file, 'utf8')).trim();
    if (existing.length >= 32) return existing;
  } catch {
    // first run
  }
  const secret = randomBytes(32).toString('base64url');
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** Boots the whole product locally: DynamoDB Local, the table, local defaults, the server. */
export async function startLocalApp(options: LocalAppOptions): Promise<LocalApp> {
  const dataDir = resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true });
  const [dynamo, pwned] = await Promise.all([
    options.dynamo ?? startDynamoLocal({ ...(!options.inMemory && { dbPath: join(dataDir, 'dynamodb') }), sustained: options.sustainedStore }),
    startPwnedPasswordsFake(),
  ]);
  const url = `http://localhost:${options.port}`;
  const outboxDir = join(dataDir, 'outbox');
  const defaults: Record<string, string> = {
    TABLE_NAME: 'live-transcribe',
    APP_URL: url,
    MAIL_TRANSPORT: 'outbox',
    OUTBOX_DIR: outboxDir,
    JWT_SECRET: await persistentSecret(dataDir, 'jwt-secret'),
    AWS_REGION: 'us-east-1',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    // Offline: the breach check asks the local fake, never the real service.
    PWNED_PASSWORDS_URL: pwned.url,
    // Caption destinations may point at the local receiver (functions/src/lib/caption-delivery.ts: never on Lambda).
    LOCAL_CAPTION_RECEIVER: `${url}${CAPTION_RECEIVER_PATH}`,
  };
  for (const [k, v] of Object.entries(defaults)) process.env[k] ??= v;
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  resetEnv();
  resetSecrets();
  await mkdir(outboxDir, { recursive: true });
  const client = new DynamoDBClient({
    endpoint: dynamo.endpoint,
    region: process.env.AWS_REGION,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const tableStream = options.tableStream ?? true;
  await ensureTable(client, process.env.TABLE_NAME!, { stream: tableStream });
  client.destroy();
  await writeFile(
    join(dataDir, 'local.json'),
    JSON.stringify({ dynamoEndpoint: dynamo.endpoint, tableName: process.env.TABLE_NAME, url, pid: process.pid }, null, 2),
  );
  let server: LocalServer;
  let aws: LocalAws | undefined;
  let relay: StreamRelay | undefined;
  const receiver = captionReceiver({ print: process.env.LOG_LEVEL !== 'silent' });
  try {
    aws = options.bundlesFrom ? await startLocalAws({ cdkOut: options.bundlesFrom, outboxDir }) : undefined;
    const bundle = options.bundlesFrom ? streamBundle(options.bundlesFrom) : undefined;
    if (options.bundlesFrom && !bundle) throw new Error(`${options.bundlesFrom} has no function fed by the table's stream: synthesize again`);
    let relayHandler: Promise<StreamHandler> | undefined;
    const relayOptions = {
      endpoint: dynamo.endpoint,
      region: process.env.AWS_REGION!,
      tableName: process.env.TABLE_NAME!,
      // The relay Lambda runs: its bundle (in its function's environment) or its source module.
      handler: () =>
        (relayHandler ??= bundle
          ? loadBundle<StreamHandler>(bundle, aws?.scope)
          : import('../handlers/live/relay-captions.ts').then((m) => m.handler as StreamHandler)),
    };
    relay = tableStream ? await startStreamRelay(relayOptions) : { idle: async () => undefined, stop: async () => undefined };
    server = await startLocalServer({
      port: options.port,
      host: options.host,
      webDist: options.webDist,
      localPages: [receiver.page, ...(options.localPages ?? [])],
      // Bundles carry their own copy of every module: they see the defaults above through process.env
      // only, each with its function's own variables on top (secrets and mail through local-aws.ts's fakes).
      loadHandler: options.bundlesFrom ? bundleLoader(options.bundlesFrom, aws?.scope) : undefined,
      originSecret: aws?.originSecret,
      // The deploy's CSP context, from the same variables (README, Deploy).
      csp: { analyticsOrigins: parseOrigins(process.env.ANALYTICS_ORIGINS), surveyOrigin: process.env.SURVEY_ORIGIN || undefined },
    });
  } catch (err) {
    await relay?.stop();
    await Promise.all([dynamo.stop(), aws?.stop(), pwned.stop()]);
    throw err;
  }
  return {
    url,
    dynamo,
    server,
    outboxDir,
    bundlesFrom: options.bundlesFrom,
    aws,
    pwned,
    captions: receiver.received,
    relay,
    stop: async () => {
      await relay.stop();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await Promise.all([dynamo.stop(), aws?.stop(), pwned.stop()]);
    },
  };
}
