import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { env } from '../lib/env.ts';

let doc: DynamoDBDocumentClient | undefined;

/** The module-level DynamoDB document client (DynamoDB Local when DYNAMODB_ENDPOINT is set). */
export function db(): DynamoDBDocumentClient {
  if (!doc) {
    const e = env();
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
