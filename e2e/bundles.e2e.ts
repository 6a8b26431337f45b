import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { SESSION_COOKIE } from '@app/shared/constants';
import { routes, type RouteDef } from '@app/shared/routes';
import { getUserByEmail } from '../functions/src/db/users.ts';
import { bundlesByRouteKey } from '../functions/src/local/bundles.ts';
import { toEvent } from '../functions/src/local/event.ts';
import { useTarget } from '../functions/src/ops/ops.ts';
import { FAKE_CALLS_PATH, type FakeCall } from '../functions/src/local/aws-fake.ts';
import { mailsTo, uniqueEmail } from './browser.ts';

/**
 * What only the synthesized bundles can show (LOCAL_HANDLERS=bundles). The journeys hash passwords
 * cheaply; here the register and login bundles run as Lambda runs them, in a Node process of their
 * own with nothing lowering the cost, against the journeys' store; and the functions read their
 * secrets from Secrets Manager and send mail through SES (the local fakes), as on AWS.
 */

const PRODUCTION_LOG_N = 17;
/** Each route's bundle, read once from the synthesized template. */
const bundles = bundlesByRouteKey(inject('bundlesFrom'));

/** Runs route `name`'s bundle once in a fresh Node process (its own cold start, no SCRYPT_LOG_N) with a JSON body. */
async function invokeCold(name: keyof typeof routes, body: unknown): Promise<{ statusCode: number; body: string; headers?: Record<string, string> }> {
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
  const env: NodeJS.ProcessEnv = { ...process.env, PWNED_PASSWORDS_URL: inject('pwnedPasswordsUrl'), EVENT: JSON.stringify(event) };
  delete env.SCRYPT_LOG_N;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { env });
  return JSON.parse(stdout) as { statusCode: number; body: string; headers?: Record<string, string> };
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
    expect(JSON.parse(loggedIn.body)).toMatchObject({ user: { email } });
    expect(loggedIn.headers?.['set-cookie']).toMatch(new RegExp(`^${SESSION_COOKIE}=[\\w-]+\\.[\\w-]+\\.[\\w-]+; .*HttpOnly; Secure; SameSite=Strict$`));
    const refused = await invokeCold('login', { email, password: 'not-the-password' });
    expect(refused.statusCode).toBe(401);
  });
});

describe('the bundles on Secrets Manager and SES (the local fakes)', () => {
  const fakes = inject('awsFakes');
  const functionOf = (name: keyof typeof routes) => bundles.get(`${routes[name].method} ${routes[name].path}`)!.functionId;
  const callsOf = async (endpoint: string) => ((await (await fetch(`${endpoint}${FAKE_CALLS_PATH}`)).json()) as { calls: FakeCall[] }).calls;
  const post = (name: keyof typeof routes, body: unknown) =>
    fetch(`${inject('baseUrl')}${routes[name].path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('sign-up reads its secrets from Secrets Manager, a reset mail goes through SES, and a function reads only what its role grants', async () => {
    const email = uniqueEmail('aws');
    const registered = await post('register', { name: 'Fake Check', email, password: 'fake-check-pass-1', recaptchaToken: 'test-pass' });
    expect(registered.status, await registered.clone().text()).toBe(200);
    expect((await post('forgotPassword', { email, recaptchaToken: 'test-pass' })).status).toBe(200);
    // Sign-up's verification link, then the reset link.
    await expect.poll(async () => (await mailsTo(email)).map((m) => m.subject)).toEqual(['Confirm your email address', 'Reset your password']);

    const reads = await callsOf(fakes.secretsManager);
    const register = functionOf('register');
    // The token key and the origin secret hold values; the bot check's secret has none (the test verifier then runs).
    expect(reads).toEqual(
      expect.arrayContaining([
        { caller: register, operation: 'GetSecretValue', subject: expect.stringMatching(/\/token-key$/), outcome: 'ok' },
        { caller: register, operation: 'GetSecretValue', subject: expect.stringMatching(/\/origin$/), outcome: 'ok' },
        { caller: register, operation: 'GetSecretValue', subject: expect.stringMatching(/\/bot-check$/), outcome: 'ResourceNotFoundException' },
      ]),
    );
    expect((await callsOf(fakes.ses)).filter((m) => m.subject === email)).toEqual([
      { caller: register, operation: 'SendEmail', subject: email, outcome: 'ok' },
      { caller: functionOf('forgotPassword'), operation: 'SendEmail', subject: email, outcome: 'ok' },
    ]);
    // No function was refused a secret or a mail so far.
    expect([...reads, ...(await callsOf(fakes.ses))].filter((c) => !['ok', 'ResourceNotFoundException'].includes(c.outcome))).toEqual([]);

    // The bot check's secret, asked for with the credentials of a function whose role does not grant it.
    const botCheck = reads.find((c) => c.subject.endsWith('/bot-check'))!.subject;
    const asGetMe = new SecretsManagerClient({ endpoint: fakes.secretsManager, region: 'us-east-1', credentials: { accessKeyId: functionOf('getMe'), secretAccessKey: 'local' } });
    await expect(asGetMe.send(new GetSecretValueCommand({ SecretId: botCheck }))).rejects.toMatchObject({ name: 'AccessDeniedException' });
  });
});
