import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { routes, type RouteDef } from '@app/shared/routes';
import { bundlesFromEnv, startLocalApp, type LocalApp } from '../functions/src/local/app.ts';
import { checkoutSimulator } from '../functions/src/local/checkout-simulator.ts';
import { freePort } from '../functions/src/local/dynamo.ts';

/**
 * Boots the real local product once for the browser tests: built SPA, handlers, DynamoDB Local.
 * With LOCAL_HANDLERS=bundles the handlers are the bundles `cdk synth` made (what Lambda runs).
 */
let app: LocalApp | undefined;
let dataDir: string | undefined;

export async function setup(project: TestProject) {
  dataDir = await mkdtemp(join(tmpdir(), 'e2e-data-'));
  process.env.LOG_LEVEL ??= 'silent';
  app = await startLocalApp({
    dataDir,
    port: await freePort(),
    // E2E_WEB_DIST lets a developer test a build made elsewhere (npx vite build --outDir ...).
    webDist: resolve(process.env.E2E_WEB_DIST ?? resolve(import.meta.dirname, '../web/dist')),
    inMemory: true,
    localPages: [checkoutSimulator],
    bundlesFrom: bundlesFromEnv(resolve(import.meta.dirname, '..')),
  });
  if (app.bundlesFrom) console.log(`e2e: route handlers from the bundles in ${app.bundlesFrom}`);
  project.provide('baseUrl', app.url);
  project.provide('outboxDir', app.outboxDir);
  project.provide('dynamoEndpoint', app.dynamo.endpoint);
  project.provide('tableName', process.env.TABLE_NAME!);
}

export async function teardown() {
  if (app?.bundlesFrom) {
    const all = Object.values(routes as Record<string, RouteDef>).map((r) => `${r.method} ${r.path}`);
    const missed = all.filter((k) => !app!.server.routeCalls.has(k));
    console.log(`e2e on the bundles: ${all.length - missed.length} of ${all.length} routes served${missed.length ? `; never called: ${missed.join(', ')}` : ''}`);
  }
  await app?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    outboxDir: string;
    tableName: string;
    dynamoEndpoint: string;
  }
}
