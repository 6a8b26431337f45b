import { GetSecretValueCommand, ResourceNotFoundException, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CAPTCHA_ACTIONS } from '@app/shared/constants';
import { routes, routeSecrets, type RouteName } from '@app/shared/routes';
import { SECRETS, type SecretName } from '@app/shared/secrets';
import { verifyCaptcha } from '../src/lib/captcha.ts';
import { resetEnv } from '../src/lib/env.ts';
import { route } from '../src/lib/http.ts';
import { resetSecrets, secret, UndeclaredSecretError, withRouteSecrets } from '../src/lib/secrets.ts';
import { toEvent } from '../src/local/event.ts';

/** Each function reads only the secrets its route is given (shared/src/routes.ts: routeSecrets), each from its own secret. */

const inRoute = <T>(name: RouteName, fn: () => Promise<T>) => withRouteSecrets(name, routeSecrets(name, routes[name]), fn);

const eventFor = (name: RouteName) =>
  toEvent({
    method: routes[name].method,
    path: routes[name].path,
    routePath: routes[name].path,
    pathParameters: {},
    rawQueryString: '',
    headers: {},
    body: undefined,
    sourceIp: '127.0.0.1',
  });

describe('a route reads only the secrets the route table gives it', () => {
  it('refuses, inside a request, a secret the route is not given, and allows the ones it is', async () => {
    await expect(inRoute('stripeWebhook', () => secret('tokenKey'))).rejects.toThrow(UndeclaredSecretError);
    await expect(inRoute('stripeWebhook', () => secret('botCheck'))).rejects.toThrow(/route stripeWebhook read the secret botCheck/);
    await expect(inRoute('viewLiveShare', () => secret('stripeApiKey'))).rejects.toThrow(UndeclaredSecretError);
    await expect(inRoute('checkout', () => secret('stripeWebhookSigning'))).rejects.toThrow(UndeclaredSecretError);
    await expect(inRoute('getMe', () => secret('tokenKey'))).resolves.toBe(process.env.JWT_SECRET);
    await expect(inRoute('maintenanceMode', () => secret('origin'))).resolves.toBeUndefined();
    // Outside a request (the local server's checkout simulator, operator commands) nothing is refused.
    await expect(secret('tokenKey')).resolves.toBe(process.env.JWT_SECRET);
  });

  it('makes a handler that reads a secret its route is not given fail with a 500, while its route is served otherwise', async () => {
    const reading = (extra: SecretName | undefined) =>
      route('maintenanceMode', async () => {
        if (extra) await secret(extra);
        return { constructionMode: false };
      });
    expect((await reading(undefined)(eventFor('maintenanceMode'))).statusCode).toBe(200);
    expect((await reading('origin')(eventFor('maintenanceMode'))).statusCode).toBe(200);
    for (const extra of ['tokenKey', 'botCheck', 'stripeApiKey', 'stripeWebhookSigning'] as const) {
      const res = await reading(extra)(eventFor('maintenanceMode'));
      expect(res.statusCode, extra).toBe(500);
      expect(JSON.parse(res.body ?? '{}'), extra).toEqual({ error: expect.any(String), code: 'server_error' });
    }
  });
});

describe('on AWS: each secret from its own Secrets Manager secret (a mocked client)', () => {
  const sm = mockClient(SecretsManagerClient);
  const arn = (s: SecretName) => `arn:aws:secretsmanager:us-east-1:123456789012:secret:live-transcribe/dev/${SECRETS[s].name}-AbCdEf`;
  const KEY = 'token-key-from-secrets-manager-0123456789abcdef';
  const set = (vars: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(vars)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetEnv();
    resetSecrets();
  };
  const onAws = (...names: SecretName[]) => set(Object.fromEntries(names.map((s) => [SECRETS[s].idVariable, arn(s)])));
  afterEach(() => {
    sm.reset();
    set({ ...Object.fromEntries(Object.values(SECRETS).map((s) => [s.idVariable, undefined])), AWS_LAMBDA_FUNCTION_NAME: undefined, CAPTCHA_MODE: undefined });
  });
  // The SDK's classes outlive this file (vitest's VM pools share libraries between files): put them back.
  afterAll(() => sm.restore());
  const noValue = () => new ResourceNotFoundException({ message: "Secrets Manager can't find the specified secret value for staging label: AWSCURRENT", $metadata: {} });

  it('reads each secret by its own ARN, once per container; a secret created without a value has none', async () => {
    onAws('tokenKey', 'botCheck', 'stripeApiKey');
    sm.on(GetSecretValueCommand, { SecretId: arn('tokenKey') }).resolves({ SecretString: KEY });
    sm.on(GetSecretValueCommand, { SecretId: arn('stripeApiKey') }).resolves({ SecretString: 'sk_test_placeholder' });
    sm.on(GetSecretValueCommand, { SecretId: arn('botCheck') }).rejects(noValue());
    expect(await secret('tokenKey')).toBe(KEY);
    expect(await secret('tokenKey')).toBe(KEY);
    expect(await secret('stripeApiKey')).toBe('sk_test_placeholder');
    expect(await secret('botCheck')).toBeUndefined();
    expect(sm.commandCalls(GetSecretValueCommand).map((c) => c.args[0].input.SecretId)).toEqual([arn('tokenKey'), arn('stripeApiKey'), arn('botCheck')]);
  });

  it('refuses a token key that is missing or short (nothing is signed with it)', async () => {
    onAws('tokenKey');
    sm.on(GetSecretValueCommand, { SecretId: arn('tokenKey') }).resolves({ SecretString: 'short' });
    await expect(secret('tokenKey')).rejects.toThrow();
    resetSecrets();
    sm.on(GetSecretValueCommand, { SecretId: arn('tokenKey') }).rejects(noValue());
    await expect(secret('tokenKey')).rejects.toThrow();
  });

  it('fails the bot check closed (503) while its secret has no value', async () => {
    onAws('botCheck');
    set({ CAPTCHA_MODE: 'recaptcha' });
    sm.on(GetSecretValueCommand, { SecretId: arn('botCheck') }).rejects(noValue());
    await expect(verifyCaptcha('test-pass', '203.0.113.7', CAPTCHA_ACTIONS.login)).rejects.toMatchObject({ status: 503 });
  });

  it('on Lambda, refuses a secret whose variable the stack did not set (the function has no access to it)', async () => {
    set({ AWS_LAMBDA_FUNCTION_NAME: 'LiveTranscribe-dev-ApiLoginRoute' });
    await expect(secret('stripeApiKey')).rejects.toThrow(/not given the secret stripeApiKey \(STRIPE_API_KEY_SECRET_ID is unset\)/);
    await expect(secret('tokenKey')).rejects.toThrow(/TOKEN_KEY_SECRET_ID/);
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(0);
  });
});
