import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  QueryCommand,
  ScanCommand,
  type QueryCommandInput,
  type QueryCommandOutput,
  type ScanCommandInput,
  type ScanCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';

type Key = Record<string, unknown>;

/**
 * The pages of one paged DynamoDB read, in order: each next page starts at the previous page's
 * LastEvaluatedKey, until a page has none. A caller that has enough leaves its loop early and no
 * further page is read. The one loop of its kind: every paged read goes through it.
 */
async function* pages<I extends { ExclusiveStartKey?: Key }, O extends { LastEvaluatedKey?: Key }>(
  input: I,
  read: (input: I) => Promise<O>,
): AsyncGenerator<O> {
  let start = input.ExclusiveStartKey;
  do {
    const out = await read({ ...input, ExclusiveStartKey: start });
    yield out;
    start = out.LastEvaluatedKey;
  } while (start);
}

/** The pages of one Query. */
export const queryPages = (input: QueryCommandInput): AsyncGenerator<QueryCommandOutput> =>
  pages(input, (page) => db().send(new QueryCommand(page)));

/** The pages of one Scan (tests and tooling: no route scans the table). */
export const scanPages = (input: ScanCommandInput): AsyncGenerator<ScanCommandOutput> =>
  pages(input, (page) => db().send(new ScanCommand(page)));

/**
 * Items by key, in batches of 100 (BatchGetItem's limit), asking again for the keys DynamoDB left
 * unprocessed; missing items are left out, and the order is DynamoDB's. `consistent`: strongly
 * consistent reads (a read unit per item under 4 KB, not half).
 */
export async function batchGetItems<T>(keys: readonly Key[], consistent = false): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < keys.length; i += 100) {
    let pending: Key[] | undefined = keys.slice(i, i + 100);
    for (let attempt = 0; pending?.length; attempt++) {
      if (attempt > 8) throw new Error('BatchGet left keys unprocessed');
      const res: BatchGetCommandOutput = await db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ...(consistent && { ConsistentRead: true }) } } }));
      out.push(...((res.Responses?.[tableName()] ?? []) as T[]));
      pending = res.UnprocessedKeys?.[tableName()]?.Keys;
    }
  }
  return out;
}
