import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { SECRETS } from '@app/shared/secrets';
import { ensureTable } from '../src/db/table.ts';
import { resetEnv } from '../src/lib/env.ts';
import { resetSecrets } from '../src/lib/secrets.ts';
import { writeEvidence } from './grant-recorder.ts';

/** Each test file: its own table on the shared DynamoDB Local, its own outbox, test secrets. */
const table = `test-${Math.random().toString(36).slice(2, 10)}`;
Object.assign(process.env, {
  DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
  PWNED_PASSWORDS_URL: inject('pwnedPasswordsUrl'),
  TABLE_NAME: table,
  AWS_REGION: 'us-east-1',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  JWT_SECRET: 'test-secret-0123456789-abcdefghijklmnopqrstuvwxyz',
  SCRYPT_LOG_N: '10',
  MAIL_TRANSPORT: 'outbox',
  OUTBOX_DIR: mkdtempSync(join(inject('tempRoot'), 'outbox-')),
  APP_URL: 'http://localhost:3000',
  LOG_LEVEL: 'silent',
});
for (const { idVariable } of Object.values(SECRETS)) delete process.env[idVariable];
delete process.env.RECAPTCHA_SECRET;
resetEnv();
resetSecrets();

beforeAll(async () => {
  const client = new DynamoDBClient({
    endpoint: process.env.DYNAMODB_ENDPOINT,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  // Without the stream: DynamoDB Local records every write in it (about half a small write's CPU).
  // The file that follows the stream turns it on (caption-destinations.test.ts).
  await ensureTable(client, table, { stream: false });
  client.destroy();
});

/** This file's DynamoDB actions per route, for the grant check after the run (global-setup.ts). */
afterAll(() => writeEvidence(inject('grantEvidenceDir')));
