import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureTable } from '../functions/src/db/table.ts';
import { resetEnv } from '../functions/src/lib/env.ts';
import { resetSecrets } from '../functions/src/lib/secrets.ts';
import { startDynamoLocal } from '../functions/src/local/dynamo.ts';

/** Runs `fn` with the handlers pointed at a fresh table on an in-memory DynamoDB Local. */
export async function withLocalStore<T>(fn: () => Promise<T>): Promise<T> {
  const dynamo = await startDynamoLocal();
  const table = `bench-${Math.random().toString(36).slice(2, 8)}`;
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    TABLE_NAME: table,
    AWS_REGION: 'us-east-1',
    JWT_SECRET: 'bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz',
    SCRYPT_LOG_N: '12',
    MAIL_TRANSPORT: 'outbox',
    OUTBOX_DIR: mkdtempSync(join(tmpdir(), 'bench-outbox-')),
    LOG_LEVEL: 'silent',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  });
  resetEnv();
  resetSecrets();
  const raw = new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
  try {
    await ensureTable(raw, table);
    return await fn();
  } finally {
    raw.destroy();
    await dynamo.stop();
  }
}
