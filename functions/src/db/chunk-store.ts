import { BatchWriteCommand, DeleteCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Segment } from '@app/shared/schemas/transcriptions';
import { decodeSearchable, packSegments, SEARCH_OVERLAP, segmentsFromStored, unpackSegments, type ChunkPiece, type Searchable, type StoredSegment } from '../domain/text.ts';
import { db, isConditionFailure, tableName } from './client.ts';
import { keys, type TranscriptKind } from './keys.ts';
import { batchGetItems, queryPages } from './pages.ts';

/**
 * The chunk store: transcript text storage shared by saved (TRANS) and automatic (AUTO) transcriptions:
 * a metadata item `<kind>#<id>` and chunk items `<kind>C#<id>#<offset>` holding the text
 * once, in its searchable form (domain/text.ts encodeSearchable), and the segments packed in one
 * string (domain/text.ts packSegments; older chunks hold them as `seg`, a list), so no
 * item nears the 400 KB limit. Chunks are immutable and carry no timestamps of their own:
 * their transcript's metadata does (an autosave delta chunk stays under 1 KB = 1 write unit).
 */

export function chunkItem(userId: string, kind: TranscriptKind, id: string, piece: ChunkPiece) {
  return {
    ...keys.transcriptChunk(userId, kind, id, piece.offset),
    type: 'chunk',
    l: piece.l,
    n: piece.n,
    o: piece.o,
    x: piece.x,
    sg: packSegments(piece.seg),
  };
}

export interface LastChunk {
  /** Where the stored text ends (UTF-16 code units). */
  end: number;
  /** The tail of the last search copy, the next chunk's overlap. */
  overlap: string;
}

/** The end of the stored text, from its last chunk (one consistent read of one item). */
export async function lastChunk(userId: string, kind: TranscriptKind, id: string): Promise<LastChunk> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.userPk(userId), ':prefix': keys.transcriptChunkPrefix(kind, id) },
      ProjectionExpression: 'SK, l, n',
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  const item = out.Items?.[0];
  if (!item) return { end: 0, overlap: '' };
  const offset = Number((item.SK as string).slice(-10));
  return { end: offset + (item.l as number), overlap: (item.n as string).slice(-SEARCH_OVERLAP) };
}

/** Writes items 25 at a time, retrying what DynamoDB leaves unprocessed. */
export async function batchWrite(requests: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < requests.length; i += 25) {
    let pending: Record<string, unknown>[] | undefined = requests.slice(i, i + 25);
    for (let attempt = 0; pending?.length; attempt++) {
      if (attempt > 8) throw new Error('BatchWrite left items unprocessed');
      if (attempt) await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending as never } }));
      pending = out.UnprocessedItems?.[tableName()] as Record<string, unknown>[] | undefined;
    }
  }
}

export async function putChunks(userId: string, kind: TranscriptKind, id: string, pieces: ChunkPiece[]): Promise<void> {
  await batchWrite(pieces.map((p) => ({ PutRequest: { Item: chunkItem(userId, kind, id, p) } })));
}

/** The whole text of a transcript and its segments, read chunk by chunk in order. */
export async function readChunks(userId: string, kind: TranscriptKind, id: string): Promise<{ text: string; segments: Segment[] }> {
  const parts: string[] = [];
  const stored: StoredSegment[] = [];
  const pages = queryPages({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.userPk(userId), ':prefix': keys.transcriptChunkPrefix(kind, id) },
    ProjectionExpression: 'n, o, x, sg, seg',
    ConsistentRead: true,
  });
  for await (const out of pages) {
    for (const item of out.Items ?? []) {
      parts.push(decodeSearchable(item as Searchable));
      // `sg` (packed string); chunks written before packing hold `seg`, a list of number lists.
      const segs = typeof item.sg === 'string' ? unpackSegments(item.sg) : ((item.seg as StoredSegment[] | undefined) ?? []);
      for (const seg of segs) stored.push(seg);
    }
  }
  const text = parts.join('');
  return { text, segments: segmentsFromStored(text, stored) };
}

/**
 * The text from the chunk boundary at or before offset `after` on, for a reader following a
 * growing transcript: one Query of the chunks that start at `after` or later (a reader that
 * always asks from the `next` it was given starts on a chunk boundary). Only when `after` falls
 * inside a chunk, or past the end, is the chunk before it read too (`end`, the stored length as
 * the caller knows it, says when no chunk starting at `after` means the end): inside a chunk, the
 * text starts at that chunk's start, so every offset inside one chunk gets the same text; past
 * the end, the text is empty at the end. `from` says where the text starts. Reads are eventually
 * consistent, so the text stops before any chunk that is not visible yet: no gap, the next read
 * brings it. At most `cap.maxChunks` chunks are read, and the text ends with the chunk that
 * reaches `cap.maxChars`: `next` says where to continue.
 */
export async function readTextFrom(
  userId: string,
  kind: TranscriptKind,
  id: string,
  after: number,
  end: number,
  cap: { maxChars: number; maxChunks: number },
): Promise<{ from: number; text: string; next: number }> {
  const prefix = keys.transcriptChunkPrefix(kind, id);
  const afterKey = keys.transcriptChunk(userId, kind, id, after).SK;
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': keys.userPk(userId), ':from': afterKey, ':to': `${prefix}~` },
      ProjectionExpression: 'SK, l, n, o, x',
      Limit: cap.maxChunks,
    }),
  );
  const items = out.Items ?? [];
  const offsetOf = (item: Record<string, unknown>) => Number((item.SK as string).slice(-10));
  const parts: string[] = [];
  let from = after;
  let next = after;
  const first = items[0];
  if (after > 0 && (first ? offsetOf(first) !== after : after !== end)) {
    const before = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :lo AND :from',
        ExpressionAttributeValues: { ':pk': keys.userPk(userId), ':lo': prefix, ':from': afterKey },
        ProjectionExpression: 'SK, l, n, o, x',
        ScanIndexForward: false,
        Limit: 1,
      }),
    );
    const chunk = before.Items?.[0];
    const start = chunk ? offsetOf(chunk) : 0;
    next = chunk ? start + (chunk.l as number) : 0;
    if (chunk && next > after) {
      from = start;
      parts.push(decodeSearchable(chunk as Searchable));
    } else from = next;
  }
  for (const item of items) {
    if (offsetOf(item) !== next || next - from >= cap.maxChars) break;
    parts.push(decodeSearchable(item as Searchable));
    next += item.l as number;
  }
  return { from, text: parts.join(''), next };
}

/** Deletes a transcript's metadata (only if it exists under this user: false otherwise), then its chunks. */
export async function deleteWithChunks(userId: string, kind: TranscriptKind, id: string): Promise<boolean> {
  try {
    await db().send(
      new DeleteCommand({ TableName: tableName(), Key: keys.transcript(userId, kind, id), ConditionExpression: 'attribute_exists(PK)' }),
    );
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
  await deleteChunks(userId, kind, id);
  return true;
}

export async function deleteChunks(userId: string, kind: TranscriptKind, id: string): Promise<void> {
  const pages = queryPages({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.userPk(userId), ':prefix': keys.transcriptChunkPrefix(kind, id) },
    ProjectionExpression: 'PK, SK',
  });
  for await (const out of pages) {
    await batchWrite((out.Items ?? []).map((k) => ({ DeleteRequest: { Key: { PK: k.PK, SK: k.SK } } })));
  }
}

export interface PageRequest {
  lo: string;
  hi: string;
  /** Only ids strictly below this one (the previous page's last id). */
  beforeId?: string;
  limit: number;
  /** Metadata filter, e.g. completion. */
  filter?: { expression: string; names?: Record<string, string>; values: Record<string, unknown> };
}

/** A page of metadata items, newest first, within [lo, hi] and below `beforeId`. */
export async function listMeta<T>(userId: string, kind: TranscriptKind, page: PageRequest): Promise<{ items: T[]; more: boolean }> {
  if (outOfRange(page)) return { items: [], more: false };
  const bounds = keys.transcriptSkBounds(kind, page.lo, page.beforeId ?? page.hi);
  const items: T[] = [];
  const pages = queryPages({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :lo AND :hi',
    ExpressionAttributeValues: { ':pk': keys.userPk(userId), ':lo': bounds.lo, ':hi': bounds.hi, ...page.filter?.values },
    ExpressionAttributeNames: page.filter?.names,
    FilterExpression: page.filter?.expression,
    ScanIndexForward: false,
    Limit: page.filter ? undefined : page.limit + 1,
  });
  for await (const out of pages) {
    for (const item of out.Items ?? []) {
      if (page.beforeId && item.SK === bounds.hi) continue;
      items.push(item as T);
    }
    if (items.length > page.limit) break;
  }
  return { items: items.slice(0, page.limit), more: items.length > page.limit };
}

/**
 * Ids whose text (or, with `titleAttr`, whose title) contains the normalised query,
 * newest first: up to limit + 1 of them, so the caller knows whether more follow.
 */
export async function searchIds(
  userId: string,
  kind: TranscriptKind,
  page: PageRequest & { q: string; titleAttr?: string },
): Promise<string[]> {
  if (outOfRange(page)) return [];
  const found = new Set<string>();
  const want = page.limit + 1;
  const textIds = collect(
    {
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :lo AND :hi',
      FilterExpression: 'contains(n, :q)',
      ProjectionExpression: 'SK',
      ScanIndexForward: false,
      ExpressionAttributeValues: {
        ':pk': keys.userPk(userId),
        ':q': page.q,
        ...bounds(keys.chunkSkBounds(kind, page.lo, page.hi), page.beforeId && keys.transcriptChunkPrefix(kind, page.beforeId).slice(0, -1)),
      },
    },
    (sk) => sk.slice(kind.length + 2, kind.length + 2 + 26),
    want,
  );
  const titleIds = page.titleAttr
    ? collect(
        {
          TableName: tableName(),
          KeyConditionExpression: 'PK = :pk AND SK BETWEEN :lo AND :hi',
          FilterExpression: `contains(#title, :q)`,
          ExpressionAttributeNames: { '#title': page.titleAttr },
          ProjectionExpression: 'SK',
          ScanIndexForward: false,
          ExpressionAttributeValues: {
            ':pk': keys.userPk(userId),
            ':q': page.q,
            ...bounds(keys.transcriptSkBounds(kind, page.lo, page.hi), page.beforeId && `${kind}#${page.beforeId}`),
          },
        },
        (sk) => sk.slice(kind.length + 1),
        want,
      )
    : Promise.resolve([]);
  for (const id of [...(await textIds), ...(await titleIds)]) if (id !== page.beforeId) found.add(id);
  return [...found].sort().reverse().slice(0, want);
}

/** A cursor from another filter can point below the range: then nothing is left. */
const outOfRange = (page: PageRequest) => page.beforeId !== undefined && page.beforeId <= page.lo;

/** Key bounds, the upper one lowered to `below` when paging (the caller drops `below` itself). */
function bounds(b: { lo: string; hi: string }, below: string | undefined | false) {
  return { ':lo': b.lo, ':hi': below || b.hi };
}

async function collect(input: QueryCommandInput, idOf: (sk: string) => string, want: number): Promise<string[]> {
  const ids: string[] = [];
  for await (const out of queryPages(input)) {
    for (const item of out.Items ?? []) {
      const id = idOf(item.SK as string);
      if (ids.at(-1) !== id) ids.push(id);
    }
    if (ids.length >= want) break;
  }
  return ids;
}

export function getMetaMany<T>(userId: string, kind: TranscriptKind, ids: string[]): Promise<T[]> {
  return batchGetItems<T>(ids.map((id) => keys.transcript(userId, kind, id)));
}
