import { QueryCommand, type QueryCommandInput, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { ListQuery } from '@app/shared/schemas/transcriptions';
import type { PageRequest } from '../db/chunk-store.ts';
import { db } from '../db/client.ts';
import { decodeCursor, encodeCursor, monthRange, normaliseForSearch } from '../domain/text.ts';
import { badRequest } from './errors.ts';

/** A list query as a key range, a page size, a cursor and a normalised search. */
export function pageRequest(query: ListQuery): PageRequest & { q?: string } {
  const { lo, hi } = monthRange(query.month, query.tzOffset);
  let beforeId: string | undefined;
  if (query.cursor) {
    beforeId = decodeCursor(query.cursor);
    if (!beforeId) throw badRequest('Invalid page cursor', 'invalid_cursor');
  }
  const q = query.search ? normaliseForSearch(query.search) : '';
  return { lo, hi, beforeId, limit: query.limit, q: q || undefined };
}

export const nextCursor = (more: boolean, lastId: string | undefined) => (more && lastId ? encodeCursor(lastId) : null);

/**
 * The pages of one DynamoDB Query, in order: each next page starts at the previous page's
 * LastEvaluatedKey, until a page has none. A caller that has enough leaves its loop early
 * and no further page is read.
 */
export async function* queryPages(input: QueryCommandInput): AsyncGenerator<QueryCommandOutput> {
  let start = input.ExclusiveStartKey;
  do {
    const out = await db().send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
    yield out;
    start = out.LastEvaluatedKey;
  } while (start);
}
