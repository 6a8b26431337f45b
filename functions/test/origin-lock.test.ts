import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { ORIGIN_SECRET_HEADER } from '@app/shared/constants';
import { getUserByEmail } from '../src/db/users.ts';
import { DEV_PASSWORD_RATE } from '../src/handlers/settings/check-dev-password.ts';
import { resetEnv } from '../src/lib/env.ts';
import { clientBucket } from '../src/lib/http.ts';
import { resetSecrets } from '../src/lib/secrets.ts';
import { call, uniqueEmail } from './call.ts';

/** Only CloudFront may call the API: it sends the origin secret, which the wrapper requires when one is configured. */
describe('origin lock', () => {
  const SECRET = 'origin-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
  const configure = (value: string | undefined) => {
    if (value === undefined) delete process.env.ORIGIN_SECRET;
    else process.env.ORIGIN_SECRET = value;
    resetEnv();
    resetSecrets();
  };
  afterEach(() => configure(undefined));

  const register = (email: string, headers: Record<string, string>) =>
    call('register', { body: { name: 'Origin', email, password: 'origin-password-1', recaptchaToken: 'test-pass' }, headers });

  it('refuses a request without the secret header, or with a wrong one, with 403 JSON and changes nothing', async () => {
    configure(SECRET);
    const wrong = ['', 'x', SECRET.slice(0, -1), `${SECRET.slice(0, -1)}!`, `${SECRET}x`, SECRET.toUpperCase()];
    for (const value of [undefined, ...wrong]) {
      const email = uniqueEmail('origin');
      const res = await register(email, value === undefined ? {} : { [ORIGIN_SECRET_HEADER]: value });
      expect(res.status, String(value)).toBe(403);
      expect(res.body).toEqual({ error: 'Forbidden', code: 'forbidden' });
      expect(await getUserByEmail(email)).toBeUndefined();
    }
    // A read is refused too, before anything else is looked at.
    expect((await call('maintenanceMode')).status).toBe(403);
    expect((await call('getMe', { token: 'not-even-a-token' })).status).toBe(403);
  });

  it('serves a request carrying the secret', async () => {
    configure(SECRET);
    const email = uniqueEmail('origin');
    const res = await register(email, { [ORIGIN_SECRET_HEADER]: SECRET });
    expect(res.status).toBe(200);
    expect(await getUserByEmail(email)).toBeDefined();
    expect((await call('maintenanceMode', { headers: { [ORIGIN_SECRET_HEADER]: SECRET } })).status).toBe(200);
  });

  it('reads the secret header whatever the case of its name (the REST API passes names as sent)', async () => {
    configure(SECRET);
    const upper = ORIGIN_SECRET_HEADER.replace(/(^|-)[a-z]/g, (c) => c.toUpperCase());
    expect(upper).not.toBe(ORIGIN_SECRET_HEADER);
    expect((await call('maintenanceMode', { headers: { [upper]: SECRET } })).status).toBe(200);
    expect((await call('maintenanceMode', { headers: { [upper]: 'wrong' } })).status).toBe(403);
  });

  describe('on AWS (the secret in Secrets Manager: no store here, so a mocked client)', () => {
    const sm = mockClient(SecretsManagerClient);
    afterEach(() => {
      sm.reset();
      delete process.env.ORIGIN_SECRET_ID;
    });
    // The SDK's classes outlive this file (vitest's VM pools share libraries between files): put them back.
    afterAll(() => sm.restore());
    const onAws = (secretString: string) => {
      process.env.ORIGIN_SECRET_ID = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:live-transcribe/dev/origin';
      configure(undefined);
      sm.on(GetSecretValueCommand, { SecretId: process.env.ORIGIN_SECRET_ID }).resolves({ SecretString: secretString });
    };

    it('reads the secret once per container and requires it', async () => {
      onAws(SECRET);
      expect((await call('maintenanceMode')).status).toBe(403);
      expect((await call('maintenanceMode', { headers: { [ORIGIN_SECRET_HEADER]: 'wrong' } })).status).toBe(403);
      expect((await call('maintenanceMode', { headers: { [ORIGIN_SECRET_HEADER]: SECRET } })).status).toBe(200);
      expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(1);
    });

    it('fails closed (a logged 500, nothing served) when the stored secret is empty or short', async () => {
      const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
      for (const stored of ['', 'short']) {
        onAws(stored);
        for (const headers of [{}, { [ORIGIN_SECRET_HEADER]: stored }] as Record<string, string>[]) {
          const res = await call('maintenanceMode', { headers });
          expect(res.status).toBe(500);
          expect(res.body.constructionMode).toBeUndefined();
        }
      }
      spy.mockRestore();
    });
  });

  it('is off without a configured secret (locally, the local server is the origin)', async () => {
    configure(undefined);
    expect((await call('maintenanceMode')).status).toBe(200);
  });
});

describe('client address buckets', () => {
  it('keeps IPv4 addresses, and reduces IPv6 ones to their /64 network', () => {
    expect(clientBucket('203.0.113.9')).toBe('203.0.113.9');
    expect(clientBucket('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::');
    expect(clientBucket('2001:DB8:1:2::ffff')).toBe('2001:db8:1:2::');
    expect(clientBucket('2001:db8::1')).toBe('2001:db8::');
    expect(clientBucket('::1')).toBe('::');
    expect(clientBucket('fe80::1%eth0')).toBe('fe80::');
    expect(clientBucket('2001:db8:0:1:0:0:0:1')).toBe('2001:db8:0:1::');
    expect(clientBucket('64:ff9b::192.0.2.1')).toBe('64:ff9b::');
  });

  it('treats an IPv4-mapped IPv6 address as the IPv4 address', () => {
    expect(clientBucket('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(clientBucket('::ffff:c000:201')).toBe('192.0.2.1');
  });

  it('is no address for anything else', () => {
    for (const bad of ['', 'not an ip', '1.2.3', '2001:db8::1::2', '::g', '999.1.1.1', '2001:db8::/64']) expect(clientBucket(bad), bad).toBeUndefined();
  });

  it('makes every address of one /64 share a per-client limit, and another /64 not', async () => {
    const prefix = `2001:db8:${(Date.now() % 0xffff).toString(16)}:7`;
    for (let i = 0; i < DEV_PASSWORD_RATE.limit; i++) {
      const res = await call('checkDevPassword', { body: { password: 'guess' }, headers: { 'x-viewer-address': `${prefix}:${i.toString(16)}::${i + 1}` } });
      expect(res.status).toBe(200);
    }
    const sameNetwork = await call('checkDevPassword', { body: { password: 'guess' }, headers: { 'x-viewer-address': `${prefix}:ffff:ffff:ffff:ffff` } });
    expect(sameNetwork.status).toBe(429);
    const nextNetwork = await call('checkDevPassword', { body: { password: 'guess' }, headers: { 'x-viewer-address': `${prefix.slice(0, -1)}8::1` } });
    expect(nextNetwork.status).toBe(200);
  });
});
