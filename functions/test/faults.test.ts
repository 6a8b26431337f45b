import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { call } from './call.ts';

/** Faults the embedded store cannot produce: throttling and outages become a generic 500, no leak. */
describe('store faults', () => {
  const ddb = mockClient(DynamoDBDocumentClient);
  afterEach(() => ddb.reset());
  // The SDK's classes outlive this file (vitest's VM pools share libraries between files): put them back.
  afterAll(() => ddb.restore());

  it('a throttled read answers a generic 500 without internals', async () => {
    const err = Object.assign(new Error('Rate of requests exceeds the allowed throughput at table test-x'), { name: 'ProvisionedThroughputExceededException' });
    ddb.on(GetCommand).rejects(err);
    const res = await call('maintenanceMode');
    expect(res.status).toBe(500);
    expect(JSON.stringify(res.body)).not.toMatch(/throughput|test-x/);
    expect(res.body.code).toBe('server_error');
  });

  it('a failed transaction that is not a condition failure is not reported as a taken email', async () => {
    ddb.on(TransactWriteCommand).rejects(Object.assign(new Error('internal'), { name: 'InternalServerError' }));
    const res = await call('register', { body: { name: 'X', email: 'fault@example.com', password: 'fault-pass-1', recaptchaToken: 'test-pass' } });
    expect(res.status).toBe(500);
  });
});
