import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { env } from '../lib/env.ts';

let doc: DynamoDBDocumentClient | undefined;
let docEnv: ReturnType<typeof env> | undefined;

/**
 * The module-level DynamoDB document client (DynamoDB Local when DYNAMODB_ENDPOINT is set),
 * made again only when the environment was re-read (tests and benchmarks switch stores).
 */
export function db(): DynamoDBDocumentClient {
  const e = env();
  if (!doc || docEnv !== e) {
    doc?.destroy();
    docEnv = e;
    const local = e.DYNAMODB_ENDPOINT
      ? { endpoint: e.DYNAMODB_ENDPOINT, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {};
    doc = DynamoDBDocumentClient.from(new DynamoDBClient({ region: e.AWS_REGION, ...local }), {
      marshallOptions: { removeUndefinedValues: true },
    });
  }
  return doc;
}

export const tableName = () => env().TABLE_NAME;

export const nowIso = () => new Date().toISOString();
export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** True when a conditional write failed, alone or inside a transaction. */
export function isConditionFailure(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name === 'ConditionalCheckFailedException') return true;
  if (err.name === 'TransactionCanceledException') {
    const reasons = (err as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
    return reasons.some((r) => r.Code === 'ConditionalCheckFailed' || r.Code === 'TransactionConflict');
  }
  return false;
}
