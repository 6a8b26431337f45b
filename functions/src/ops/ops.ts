import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { PASSWORD_MIN } from '@app/shared/constants';
import { checkDevPasswordRequest } from '@app/shared/schemas/site';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { getSiteSettings, setSiteSettings } from '../db/site-settings.ts';
import { hashPassword } from '../domain/passwords.ts';
import { env, resetEnv } from '../lib/env.ts';

/**
 * Operator commands on the site settings, against the running local server's store (default)
 * or a deployed table (`--table`, default AWS credential chain):
 *
 *   npm run ops -- maintenance on|off
 *   npm run ops -- dev-password            (prompted without echo; or DEV_PASSWORD / --password / stdin)
 *   npm run ops -- status
 *   npm run ops -- maintenance on --table <TableName> --region <region>
 */

export const USAGE = `Usage: npm run ops -- <command> [--table <TableName> [--region <region>]]

Commands:
  maintenance on|off   turn maintenance mode on or off
  dev-password         set the developer password that bypasses maintenance mode
                       (prompted without echo; or DEV_PASSWORD=... / --password ... / piped on stdin)
  status               show maintenance mode and whether a dev password is set

Without --table the command targets the running local server's store (DATA_DIR/local.json).`;

const COMMANDS = ['maintenance', 'dev-password', 'status'];

/** Where the commands act: DynamoDB Local (endpoint set) or a deployed table (no endpoint). */
export interface OpsTarget {
  table: string;
  endpoint?: string;
  region?: string;
}

/** A failure meant for the operator: printed as one line, exit code 1. */
export class OpsError extends Error {
  override name = 'OpsError';
}

export interface OpsFlags {
  table?: string;
  region?: string;
  password?: string;
}

export function parseOpsArgs(argv: string[]): { positionals: string[]; flags: OpsFlags } {
  try {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { table: { type: 'string' }, region: { type: 'string' }, password: { type: 'string' } },
    });
    return { positionals, flags: values };
  } catch (err) {
    throw new OpsError(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
  }
}

/**
 * The target from the flags: `--table` means the deployed table; otherwise the local server's
 * store as written in `<dataDir>/local.json`, checked to be reachable.
 */
export async function resolveTarget(flags: OpsFlags, dataDir: string): Promise<OpsTarget> {
  if (flags.table) return { table: flags.table, region: flags.region };
  const file = resolve(dataDir, 'local.json');
  let info: { dynamoEndpoint?: unknown; tableName?: unknown };
  try {
    info = JSON.parse(await readFile(file, 'utf8')) as typeof info;
  } catch {
    throw new OpsError(`No local server found (${file} is missing or unreadable): start it with \`npm start\`, or pass --table <TableName> for a deployed table.`);
  }
  if (typeof info.dynamoEndpoint !== 'string' || typeof info.tableName !== 'string') {
    throw new OpsError(`${file} does not name a DynamoDB endpoint and table: restart the local server with \`npm start\`.`);
  }
  const target = { endpoint: info.dynamoEndpoint, table: info.tableName };
  await probeLocal(target);
  return target;
}

/** Fails fast with one clear line when the local store is down or lacks the table. */
async function probeLocal(target: Required<Pick<OpsTarget, 'endpoint' | 'table'>>): Promise<void> {
  const client = new DynamoDBClient({
    endpoint: target.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 2000, requestTimeout: 5000 },
  });
  try {
    await client.send(new DescribeTableCommand({ TableName: target.table }));
  } catch (err) {
    const why = err instanceof Error && err.name === 'ResourceNotFoundException' ? `has no table ${target.table}` : 'is not reachable';
    throw new OpsError(`The local server's store at ${target.endpoint} ${why}: is \`npm start\` running? (or pass --table <TableName> for a deployed table)`);
  } finally {
    client.destroy();
  }
}

/** Points the shared db modules at the target. Call once per process, before the first db use. */
export function useTarget(target: OpsTarget): void {
  process.env.TABLE_NAME = target.table;
  if (target.endpoint) process.env.DYNAMODB_ENDPOINT = target.endpoint;
  else delete process.env.DYNAMODB_ENDPOINT;
  const region = target.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
  if (region) process.env.AWS_REGION = region;
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  resetEnv();
}

const describe = (target: OpsTarget) =>
  target.endpoint ? `local store ${target.endpoint}, table ${target.table}` : `table ${target.table} in ${env().AWS_REGION}`;

/** The dev password's own rule: what the check route accepts, and at least PASSWORD_MIN characters. */
export function validateDevPassword(password: string): string {
  const parsed = checkDevPasswordRequest.shape.password.safeParse(password);
  if (!parsed.success || password.length < PASSWORD_MIN) {
    throw new OpsError(`The dev password must be ${PASSWORD_MIN} to 256 characters long.`);
  }
  return password;
}

export interface OpsIo {
  /** Supplies the new dev password when neither --password nor DEV_PASSWORD gives one. */
  readPassword?: () => Promise<string>;
}

/**
 * Runs one command against the target and returns what to print. The core of the CLI,
 * exported for tests: `runOps(['maintenance', 'on'], { table, endpoint })`.
 */
export async function runOps(argv: string[], target: OpsTarget, io: OpsIo = {}): Promise<string> {
  const { positionals, flags } = parseOpsArgs(argv);
  const [command, arg, ...extra] = positionals;
  useTarget(target);
  const where = describe(target);
  switch (command) {
    case 'maintenance': {
      if ((arg !== 'on' && arg !== 'off') || extra.length) throw new OpsError(`Say \`maintenance on\` or \`maintenance off\`.\n${USAGE}`);
      await setSiteSettings({ maintenanceMode: arg === 'on' });
      return `Maintenance mode is now ${arg.toUpperCase()} (${where}).`;
    }
    case 'dev-password': {
      if (arg !== undefined) throw new OpsError(`dev-password takes no argument (use --password or DEV_PASSWORD).\n${USAGE}`);
      const given = flags.password ?? process.env.DEV_PASSWORD;
      if (given === undefined && !io.readPassword) throw new OpsError('No password given: use --password, DEV_PASSWORD or stdin.');
      const password = validateDevPassword(given ?? (await io.readPassword!()));
      await setSiteSettings({ devPasswordHash: await hashPassword(password, env().SCRYPT_LOG_N) });
      return `Dev password set (${where}).`;
    }
    case 'status': {
      if (arg !== undefined) throw new OpsError(USAGE);
      const settings = await getSiteSettings();
      return [
        `Target: ${where}`,
        `Maintenance mode: ${settings.maintenanceMode ? 'ON' : 'OFF'}`,
        `Dev password: ${settings.devPasswordHash ? 'set' : 'not set'}`,
      ].join('\n');
    }
    default:
      throw new OpsError(command ? `Unknown command: ${command}\n${USAGE}` : USAGE);
  }
}

/** Reads a line from the terminal without echoing it. */
function promptHidden(prompt: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(prompt);
  return new Promise((resolvePromise, reject) => {
    let value = '';
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    const done = (err?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (err) reject(err);
      else resolvePromise(value);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return done();
        if (ch === '\u0003') return done(new OpsError('Cancelled.'));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else if (ch >= ' ') value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

/** The new password from the terminal (typed twice, hidden) or from piped stdin (first line). */
async function readPasswordFromStdin(): Promise<string> {
  if (process.stdin.isTTY) {
    const first = await promptHidden('New dev password: ');
    const second = await promptHidden('Repeat it: ');
    if (first !== second) throw new OpsError('The two passwords differ; nothing changed.');
    return first;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
}

async function main(argv: string[]): Promise<void> {
  const { positionals, flags } = parseOpsArgs(argv);
  if (positionals.length === 0 || positionals[0] === 'help') {
    console.log(USAGE);
    return;
  }
  if (!COMMANDS.includes(positionals[0]!)) throw new OpsError(`Unknown command: ${positionals[0]}\n${USAGE}`);
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const root = resolve(import.meta.dirname, '../../..');
  const target = await resolveTarget(flags, resolve(root, process.env.DATA_DIR ?? '.data'));
  try {
    console.log(await runOps(argv, target, { readPassword: readPasswordFromStdin }));
  } catch (err) {
    if (err instanceof Error && err.name === 'ResourceNotFoundException') {
      throw new OpsError(`Table ${target.table} not found in ${env().AWS_REGION} (check --table and --region).`);
    }
    throw err;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    const text = err instanceof OpsError ? err.message : err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    const [first, ...rest] = text.split('\n');
    console.error(`ops: ${first}`);
    if (err instanceof OpsError && rest.length) console.error(rest.join('\n'));
    process.exit(1);
  });
}
