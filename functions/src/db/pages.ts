import {
  QueryCommand,
  ScanCommand,
  type QueryCommandInput,
  type QueryCommandOutput,
  type ScanCommandInput,
  type ScanCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { db } from './client.ts';

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
