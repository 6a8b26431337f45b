import type { ListQuery } from '@app/shared/schemas/transcriptions';
import type { PageRequest } from '../db/chunk-store.ts';
import { decodeCursor, encodeCursor, monthRange, normaliseForSearch } from '../domain/text.ts';
import { badRequest } from './errors.ts';

/** A list route's query as a key range, a page size, a cursor and a normalised search; an invalid cursor is a 400. */
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
