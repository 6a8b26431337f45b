import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserServer } from 'playwright-core';
import { tsImport } from 'tsx/esm/api';
import type { TestProject } from 'vitest/node';
import type { RouteDef } from '@app/shared/routes';
import type { LocalApp } from '../functions/src/local/app.ts';
import { freePort, startDynamoLocal } from '../functions/src/local/dynamo.ts';
import { launchChromiumServer } from './chromium.ts';
import { E2E_ANALYTICS_ORIGINS, E2E_SURVEY_URL, webDist } from './web-build.ts';

/**
 * Boots, once for every browser journey of the run: the built SPA, the local product (handlers,
 * DynamoDB Local) and one Chromium that every test file connects to.
 * - The web app is built here (with the survey configured, as the journeys need it) into
 *   node_modules/.cache/e2e-web, unless E2E_WEB_DIST names a build to use instead.
 * - With LOCAL_HANDLERS=bundles the handlers are the bundles `cdk synth` made (what Lambda runs),
 *   reading their secrets from a local Secrets Manager and sending mail through a local SES
 *   (functions/src/local/local-aws.ts) that writes to the same outbox.
 *   Either way journeys hash passwords cheaply (SCRYPT_LOG_N=10), as the functions tests do: the
 *   production cost is checked once, on the bundles, in a process of their own (bundles.e2e.ts).
 * - The product's modules load as `npm start` loads them, by Node through tsx, while DynamoDB
 *   Local and Chromium start: through vitest's module runner they took about 3.4 s on 2 cores
 *   where tsx takes 0.9 s, all before the first journey could start.
 */

const root = resolve(import.meta.dirname, '..');

interface Run {
  app: LocalApp;
  browser: BrowserServer;
  dataDir: string;
  surveyOrigin: string;
  /** Every route of the route table (the bundles pass reports the ones no journey called). */
  routeKeys: string[];
}

/** A module of the product, loaded by tsx (see above) with the types of its source. */
const load = <M>(specifier: string) => tsImport(specifier, import.meta.url) as Promise<M>;

/**
 * The run's product and browser, shared by the e2e projects (the journeys, then the one that runs
 * alone): vitest calls each project's setup and teardown, in one process.
 */
const shared = globalThis as { e2eRun?: { projects: number; started: Promise<Run> } };

async function start(): Promise<Run> {
  process.env.LOG_LEVEL ??= 'silent';
  process.env.SURVEY_ORIGIN = new URL(E2E_SURVEY_URL).origin;
  process.env.ANALYTICS_ORIGINS = E2E_ANALYTICS_ORIGINS.join(',');
  process.env.SCRYPT_LOG_N ??= '10';
  const dynamo = startDynamoLocal();
  const browser = launchChromiumServer();
  try {
    const [dist, dataDir, local, checkout, table] = await Promise.all([
      webDist(root),
      mkdtemp(join(tmpdir(), 'e2e-data-')),
      load<typeof import('../functions/src/local/app.ts')>('../functions/src/local/app.ts'),
      load<typeof import('../functions/src/local/checkout-simulator.ts')>('../functions/src/local/checkout-simulator.ts'),
      load<typeof import('@app/shared/routes')>('@app/shared/routes'),
      browser,
      dynamo,
    ]);
    const app = await local.startLocalApp({
      dataDir,
      port: await freePort(),
      webDist: dist,
      inMemory: true,
      localPages: [checkout.checkoutSimulator],
      bundlesFrom: local.bundlesFromEnv(root),
      dynamo,
    });
    if (app.bundlesFrom) console.log(`e2e: route handlers from the bundles in ${app.bundlesFrom}`);
    const routeKeys = Object.values(table.routes as Record<string, RouteDef>).map((r) => `${r.method} ${r.path}`);
    return { app, browser: await browser, dataDir, surveyOrigin: process.env.SURVEY_ORIGIN, routeKeys };
  } catch (err) {
    // Nothing left running: vitest would wait for the two processes before it exits.
    await Promise.allSettled([dynamo.then((d) => d.stop()), browser.then((b) => b.close())]);
    throw err;
  }
}

export async function setup(project: TestProject) {
  const run = (shared.e2eRun ??= { projects: 0, started: start() });
  run.projects++;
  const { app, browser, surveyOrigin } = await run.started;
  project.provide('baseUrl', app.url);
  project.provide('outboxDir', app.outboxDir);
  project.provide('dynamoEndpoint', app.dynamo.endpoint);
  project.provide('tableName', process.env.TABLE_NAME!);
  project.provide('browserEndpoint', browser.wsEndpoint());
  project.provide('surveyOrigin', surveyOrigin);
  project.provide('bundlesFrom', app.bundlesFrom ?? '');
  project.provide('pwnedPasswordsUrl', app.pwned.url);
  project.provide('tokenKey', process.env.JWT_SECRET!);
  project.provide('awsFakes', { secretsManager: app.aws?.secretsManager.endpoint ?? '', ses: app.aws?.ses.endpoint ?? '' });
}

export async function teardown() {
  const run = shared.e2eRun;
  if (!run || --run.projects > 0) return;
  delete shared.e2eRun;
  const { app, browser, dataDir, routeKeys: all } = await run.started;
  if (app.bundlesFrom) {
    const missed = all.filter((k) => !app.server.routeCalls.has(k));
    console.log(`e2e on the bundles: ${all.length - missed.length} of ${all.length} routes served${missed.length ? `; never called: ${missed.join(', ')}` : ''}`);
    const [reads, mails] = [app.aws?.secretsManager.calls ?? [], app.aws?.ses.calls ?? []];
    console.log(`e2e on the bundles: ${reads.length} secret reads from the local Secrets Manager, ${mails.filter((m) => m.outcome === 'ok').length} mails through the local SES`);
  }
  await Promise.all([app.stop(), browser.close()]);
  await rm(dataDir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    outboxDir: string;
    tableName: string;
    dynamoEndpoint: string;
    /** The run's one Chromium (BrowserType.launchServer), for chromium.connect. */
    browserEndpoint: string;
    /** The origin the CSP allows the survey form from. */
    surveyOrigin: string;
    /** The synthesized app (cdk.out) whose bundles the local server runs; empty on the sources. */
    bundlesFrom: string;
    /** With the bundles: the endpoints of the local Secrets Manager and SES they call (empty on the sources). */
    awsFakes: { secretsManager: string; ses: string };
    /** The local Pwned Passwords range API the breach check asks (never the real service). */
    pwnedPasswordsUrl: string;
    /** The key session tokens are signed with (the local JWT_SECRET), to make a token of an earlier version. */
    tokenKey: string;
  }
}
