import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { routes, type RouteDef } from '@app/shared/routes';
import { getUserByEmail } from '../functions/src/db/users.ts';
import { bundlesByRouteKey } from '../functions/src/local/bundles.ts';
import { toEvent } from '../functions/src/local/event.ts';
import { useTarget } from '../functions/src/ops/ops.ts';
import { uniqueEmail } from './browser.ts';

/**
 * What only the synthesized bundles can show (LOCAL_HANDLERS=bundles). The journeys hash passwords
 * cheaply; here the register and login bundles run as Lambda runs them, in a Node process of their
 * own with nothing lowering the cost, against the journeys' store.
 */

const PRODUCTION_LOG_N = 17;
/** Each route's bundle, read once from the synthesized template. */
const bundles = bundlesByRouteKey(inject('bundlesFrom'));

/** Runs route `name`'s bundle once in a fresh Node process (its own cold start, no SCRYPT_LOG_N) with a JSON body. */
async function invokeCold(name: keyof typeof routes, body: unknown): Promise<{ statusCode: number; body: string }> {
  const def = routes[name] as RouteDef;
  const bundle = bundles.get(`${def.method} ${def.path}`)!;
  const event = toEvent({
    method: def.method,
    path: def.path,
    routePath: def.path,
    pathParameters: {},
    rawQueryString: '',
    headers: { 'content-type': 'application/json', host: 'localhost' },
    body: JSON.stringify(body),
    sourceIp: '127.0.0.1',
  });
  const script = `const m = await import(${JSON.stringify(bundle.file)}); const r = await m[${JSON.stringify(bundle.exportName)}](JSON.parse(process.env.EVENT)); process.stdout.write(JSON.stringify(r));`;
  const env: NodeJS.ProcessEnv = { ...process.env, EVENT: JSON.stringify(event) };
  delete env.SCRYPT_LOG_N;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { env });
  return JSON.parse(stdout) as { statusCode: number; body: string };
}

describe('the bundles at production settings', () => {
  it(`register hashes at the production cost (scrypt N=2^${PRODUCTION_LOG_N}) and login verifies it`, { timeout: 60_000 }, async () => {
    useTarget({ table: inject('tableName'), endpoint: inject('dynamoEndpoint') });
    const email = uniqueEmail('cost');
    const password = 'production-cost-1';
    const registered = await invokeCold('register', { name: 'Cost Check', email, password, recaptchaToken: 'test-pass' });
    expect(registered.statusCode, registered.body).toBe(200);
    expect((await getUserByEmail(email))?.passwordHash).toMatch(new RegExp(`^scrypt\\$${PRODUCTION_LOG_N}\\$8\\$1\\$`));

    const loggedIn = await invokeCold('login', { email, password });
    expect(loggedIn.statusCode, loggedIn.body).toBe(200);
    expect(JSON.parse(loggedIn.body)).toMatchObject({ token: expect.any(String) });
    const refused = await invokeCold('login', { email, password: 'not-the-password' });
    expect(refused.statusCode).toBe(401);
  });
});
