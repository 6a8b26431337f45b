import { BatchWriteCommand, DeleteCommand, GetCommand, QueryCommand, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';
import type { Segment } from '@app/shared/schemas/transcriptions';
import { retimeSegments } from '../domain/retime.ts';
import {
  decodeSearchable,
  formatLayout,
  genAt,
  layoutFrom,
  packSegments,
  parseLayout,
  preview,
  SEARCH_OVERLAP,
  segmentsFromStored,
  splitIntoChunks,
  unpackSegments,
  type ChunkPiece,
  type Searchable,
  type StoredSegment,
} from '../domain/text.ts';
import { db, isConditionFailure, nowIso, tableName } from './client.ts';
import { chunkSkParts, keys, type TranscriptKind } from './keys.ts';
import { batchGetItems, queryPages } from './pages.ts';

/**
 * The chunk store: transcript text storage shared by saved (TRANS) and automatic (AUTO) transcriptions:
 * a metadata item `<kind>#<id>` and chunk items `<kind>C#<id>#<offset>` holding the text
 * once, in its searchable form (domain/text.ts encodeSearchable), and the segments packed in one
 * string (domain/text.ts packSegments; older chunks hold them as `seg`, a list), so no
 * item nears the 400 KB limit. Chunks are immutable and carry no timestamps of their own:
 * their transcript's metadata does (an autosave delta chunk stays under 1 KB = 1 write unit).
 *
 * An edit (editTranscript) never overwrites a chunk: it writes the chunks from the first changed
 * one on under a new generation, switches the metadata's `layout` and `version` in one
 * conditional write, then deletes the chunks the layout no longer names. Readers follow the
 * layout of the metadata they read (a transcript never edited has none: all its chunks are live).
 */

/** Metadata attributes that say which chunks are live (both absent until the first edit). */
export interface ChunkedMeta {
  /** domain/text.ts ChunkLayout, as stored. */
  layout?: string;
  /** Counts edits; absent = 0. */
  version?: number;
  length: number;
}

/** The chunks no longer match the layout read before them: an edit switched it meanwhile. Read the metadata again. */
export class StaleLayout extends Error {
  constructor() {
    super('transcript: its layout changed while it was read');
  }
}

export function chunkItem(userId: string, kind: TranscriptKind, id: string, piece: ChunkPiece, gen = '') {
  return {
    ...keys.transcriptChunk(userId, kind, id, piece.offset, gen),
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
  /** Its generation: '' unless the transcript was edited. */
  gen: string;
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
  if (!item) return { end: 0, gen: '', overlap: '' };
  const { offset, gen } = chunkSkParts(item.SK as string);
  return { end: offset + (item.l as number), gen, overlap: (item.n as string).slice(-SEARCH_OVERLAP) };
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

export async function putChunks(userId: string, kind: TranscriptKind, id: string, pieces: ChunkPiece[], gen = ''): Promise<void> {
  await batchWrite(pieces.map((p) => ({ PutRequest: { Item: chunkItem(userId, kind, id, p, gen) } })));
}

/** One live chunk as read back. */
interface LiveChunk {
  SK: string;
  offset: number;
  l: number;
  /** Its search copy (the next chunk's overlap comes from its tail). */
  n: string;
  text: string;
  seg: StoredSegment[];
}

/**
 * The live chunks of a transcript in order: those the metadata's layout names. For an edited
 * transcript (one with a layout) they must run from 0 to its length without a gap, or an edit
 * switched the layout after the metadata was read (StaleLayout).
 */
async function readLiveChunks(userId: string, kind: TranscriptKind, id: string, meta?: ChunkedMeta): Promise<LiveChunk[]> {
  const layout = parseLayout(meta?.layout);
  const chunks: LiveChunk[] = [];
  let end = 0;
  const pages = queryPages({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.userPk(userId), ':prefix': keys.transcriptChunkPrefix(kind, id) },
    ProjectionExpression: 'SK, l, n, o, x, sg, seg',
    ConsistentRead: true,
  });
  for await (const out of pages) {
    for (const item of out.Items ?? []) {
      const { offset, gen } = chunkSkParts(item.SK as string);
      if (gen !== genAt(layout, offset)) continue;
      if (meta?.layout && offset !== end) throw new StaleLayout();
      // `sg` (packed string); chunks written before packing hold `seg`, a list of number lists.
      const seg = typeof item.sg === 'string' ? unpackSegments(item.sg) : ((item.seg as StoredSegment[] | undefined) ?? []);
      chunks.push({ SK: item.SK as string, offset, l: item.l as number, n: item.n as string, text: decodeSearchable(item as Searchable), seg });
      end = offset + (item.l as number);
    }
  }
  if (meta?.layout && end !== meta.length) throw new StaleLayout();
  return chunks;
}

/**
 * The whole text of a transcript and its segments, read chunk by chunk in order, following the
 * layout of `meta` (read just before, consistently); StaleLayout when an edit switched it meanwhile.
 */
export async function readChunks(userId: string, kind: TranscriptKind, id: string, meta?: ChunkedMeta): Promise<{ text: string; segments: Segment[] }> {
  const chunks = await readLiveChunks(userId, kind, id, meta);
  const text = chunks.map((c) => c.text).join('');
  return { text, segments: segmentsFromStored(text, chunks.flatMap((c) => c.seg)) };
}

/** Reads metadata and text together, again when an edit switched the layout in between. */
export async function readWithChunks<T extends ChunkedMeta>(
  userId: string,
  kind: TranscriptKind,
  id: string,
  readMeta: () => Promise<T | undefined>,
): Promise<{ meta: T; text: string; segments: Segment[] } | undefined> {
  for (let attempt = 0; ; attempt++) {
    const meta = await readMeta();
    if (!meta) return undefined;
    try {
      return { meta, ...(await readChunks(userId, kind, id, meta)) };
    } catch (err) {
      if (!(err instanceof StaleLayout) || attempt >= 4) throw err;
    }
  }
}

/** One metadata item, strongly consistent. */
export async function getMeta<T>(userId: string, kind: TranscriptKind, id: string): Promise<T | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.transcript(userId, kind, id), ConsistentRead: true }));
  return out.Item as T | undefined;
}

export interface TranscriptEdit {
  /** The version the edit was made on: the metadata must still hold it. */
  version: number;
  /** The new text; without `segments`, the old segments' times carry over (domain/retime.ts). */
  text?: { fullTranscript: string; segments?: StoredSegment[] };
  /** Metadata attributes to set with it (a title). */
  set?: Record<string, unknown>;
  /** Only while the metadata passes this condition too (an automatic transcription: completed). */
  condition?: { expression: string; values: Record<string, unknown>; holds: (meta: Record<string, unknown>) => boolean };
}

export type EditOutcome<T> = { status: 'ok'; meta: T } | { status: 'missing' } | { status: 'conflict'; version: number } | { status: 'refused' };

/**
 * Edits a transcript in place, on condition that it still holds `edit.version` (optimistic
 * concurrency: of two edits of one version, one wins and the other gets `conflict` with the
 * version now stored). Only the chunks from the first one whose text or segments change are
 * written again, under a new generation; the metadata then switches `layout`, `version` (+1),
 * `length` and `preview` in one conditional write, and the old chunks it no longer names are
 * deleted. A failure before the switch leaves the old text whole (the new chunks are not live and
 * are deleted when possible); one after it leaves unreachable chunks that readers skip.
 */
export async function editTranscript<T extends ChunkedMeta>(userId: string, kind: TranscriptKind, id: string, edit: TranscriptEdit): Promise<EditOutcome<T>> {
  const meta = await getMeta<T & Record<string, unknown>>(userId, kind, id);
  if (!meta) return { status: 'missing' };
  if (edit.condition && !edit.condition.holds(meta)) return { status: 'refused' };
  if ((meta.version ?? 0) !== edit.version) return { status: 'conflict', version: meta.version ?? 0 };

  const names: Record<string, string> = { '#version': 'version' };
  const values: Record<string, unknown> = { ':next': edit.version + 1, ':now': nowIso(), ...edit.condition?.values };
  const sets = ['#version = :next', 'updatedAt = :now'];
  Object.entries(edit.set ?? {}).forEach(([name, value], i) => {
    names[`#a${i}`] = name;
    values[`:a${i}`] = value;
    sets.push(`#a${i} = :a${i}`);
  });
  let written: string[] = [];
  let replaced: string[] = [];
  if (edit.text) {
    const plan = await planRewrite(userId, kind, id, meta, edit.text);
    if (plan) {
      const gen = randomBytes(4).toString('hex');
      written = plan.pieces.map((p) => keys.transcriptChunk(userId, kind, id, p.offset, gen).SK);
      try {
        await putChunks(userId, kind, id, plan.pieces, gen);
      } catch (err) {
        await deleteKeys(userId, written).catch(() => undefined);
        throw err;
      }
      replaced = plan.replaced;
      Object.assign(names, { '#layout': 'layout', '#length': 'length' });
      Object.assign(values, { ':layout': formatLayout(layoutFrom(parseLayout(meta.layout), plan.from, gen)), ':len': plan.length, ':preview': preview(edit.text.fullTranscript) });
      sets.push('#layout = :layout', '#length = :len', 'preview = :preview');
    }
  }
  const versionHeld = edit.version === 0 ? '(#version = :v OR attribute_not_exists(#version))' : '#version = :v';
  values[':v'] = edit.version;
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.transcript(userId, kind, id),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: ['attribute_exists(PK)', versionHeld, edit.condition?.expression].filter(Boolean).join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    // The edit is done: chunks left by a failed clean-up are ones no layout names, which readers
    // skip and deleting the transcript removes.
    await deleteKeys(userId, replaced).catch(() => undefined);
    return { status: 'ok', meta: out.Attributes as T };
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    await deleteKeys(userId, written).catch(() => undefined);
    const now = await getMeta<T & Record<string, unknown>>(userId, kind, id);
    if (!now) return { status: 'missing' };
    if ((now.version ?? 0) !== edit.version) return { status: 'conflict', version: now.version ?? 0 };
    return { status: 'refused' };
  }
}

/**
 * What an edit must write: the chunks from the first live one whose text or segments differ in
 * the new text (`from`, its offset; the old text's end when only text is added), and the keys of
 * the live chunks they replace. Undefined when neither text nor segments change.
 */
async function planRewrite(
  userId: string,
  kind: TranscriptKind,
  id: string,
  meta: ChunkedMeta,
  edit: { fullTranscript: string; segments?: StoredSegment[] },
): Promise<{ from: number; pieces: ChunkPiece[]; replaced: string[]; length: number } | undefined> {
  const chunks = await readLiveChunks(userId, kind, id, meta);
  const text = edit.fullTranscript;
  const oldText = chunks.map((c) => c.text).join('');
  const segments = edit.segments ?? retimeSegments(oldText, chunks.flatMap((c) => c.seg), text);
  let first = 0;
  let s = 0;
  for (; first < chunks.length; first++) {
    const c = chunks[first]!;
    const end = c.offset + c.l;
    const start = s;
    while (s < segments.length && segments[s]![2] < end) s++;
    if (!text.startsWith(c.text, c.offset) || packSegments(segments.slice(start, s)) !== packSegments(c.seg)) {
      s = start;
      break;
    }
  }
  const from = first < chunks.length ? chunks[first]!.offset : oldText.length;
  if (from === text.length && first === chunks.length && s === segments.length) return undefined;
  const overlap = first > 0 ? chunks[first - 1]!.n.slice(-SEARCH_OVERLAP) : '';
  return {
    from,
    pieces: splitIntoChunks(text.slice(from), from, segments.slice(s), overlap),
    replaced: chunks.slice(first).map((c) => c.SK),
    length: text.length,
  };
}

async function deleteKeys(userId: string, sks: readonly string[]): Promise<void> {
  await batchWrite(sks.map((SK) => ({ DeleteRequest: { Key: { PK: keys.userPk(userId), SK } } })));
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
  /** The metadata's layout, once the transcript was edited: only the chunks it names are read. */
  layout?: string,
  /** Strongly consistent reads (the caption relay: every chunk written before the read is in it). */
  consistent = false,
): Promise<{ from: number; text: string; next: number }> {
  const parsed = parseLayout(layout);
  const live = (item: Record<string, unknown>) => {
    const { offset, gen } = chunkSkParts(item.SK as string);
    return gen === genAt(parsed, offset);
  };
  const prefix = keys.transcriptChunkPrefix(kind, id);
  const afterKey = keys.transcriptChunk(userId, kind, id, after).SK;
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': keys.userPk(userId), ':from': afterKey, ':to': `${prefix}~` },
      ProjectionExpression: 'SK, l, n, o, x',
      Limit: cap.maxChunks,
      ConsistentRead: consistent,
    }),
  );
  const items = (out.Items ?? []).filter(live);
  const offsetOf = (item: Record<string, unknown>) => chunkSkParts(item.SK as string).offset;
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
        // An edited transcript may still hold chunks its layout no longer names just before.
        Limit: layout ? 10 : 1,
        ConsistentRead: consistent,
      }),
    );
    const chunk = before.Items?.find(live);
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

/** Every metadata item of a kind, oldest first, after `afterId`: up to `limit`, and whether more follow. */
export async function listMetaAfter<T>(userId: string, kind: TranscriptKind, afterId: string | undefined, limit: number): Promise<{ items: T[]; more: boolean }> {
  const bounds = keys.transcriptSkBounds(kind, afterId ?? '', '~');
  const items: T[] = [];
  const pages = queryPages({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :lo AND :hi',
    ExpressionAttributeValues: { ':pk': keys.userPk(userId), ':lo': bounds.lo, ':hi': bounds.hi },
    ConsistentRead: true,
    Limit: limit + 1,
  });
  for await (const out of pages) {
    for (const item of out.Items ?? []) if (item.SK !== bounds.lo) items.push(item as T);
    if (items.length > limit) break;
  }
  return { items: items.slice(0, limit), more: items.length > limit };
}

/** A page of one transcript's text from a chunk boundary (readTextPage). */
export interface TextPage {
  version: number;
  from: number;
  text: string;
  /** The stored segments of the page's chunks: `at` counts from the start of the whole text. */
  segments: StoredSegment[];
  /** Where the next page starts; null when the text ends with this page. */
  next: number | null;
}

/**
 * The live chunks of a transcript from offset `from` (0 or a `next` answered before), in order,
 * until `maxChars` is reached (whole chunks: the page ends with the chunk that crosses it) or the
 * text ends. Undefined when the metadata is missing. StaleLayout when `from` is not where a live
 * chunk starts, or an edited transcript's chunks leave a gap: an edit changed the text meanwhile.
 * Reads are consistent, so the pages of one version put together are its whole text.
 */
export async function readTextPage(userId: string, kind: TranscriptKind, id: string, from: number, maxChars: number): Promise<TextPage | undefined> {
  const meta = await getMeta<ChunkedMeta>(userId, kind, id);
  if (!meta) return undefined;
  const layout = parseLayout(meta.layout);
  const prefix = keys.transcriptChunkPrefix(kind, id);
  const parts: string[] = [];
  const segments: StoredSegment[] = [];
  let next = from;
  let more = false;
  const pages = queryPages({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': keys.userPk(userId), ':from': keys.transcriptChunk(userId, kind, id, from).SK, ':to': `${prefix}~` },
    ProjectionExpression: 'SK, l, n, o, x, sg, seg',
    ConsistentRead: true,
  });
  read: for await (const out of pages) {
    for (const item of out.Items ?? []) {
      const { offset, gen } = chunkSkParts(item.SK as string);
      if (gen !== genAt(layout, offset)) continue;
      if (next - from >= maxChars) {
        more = true;
        break read;
      }
      if (offset !== next) throw new StaleLayout();
      parts.push(decodeSearchable(item as Searchable));
      segments.push(...(typeof item.sg === 'string' ? unpackSegments(item.sg) : ((item.seg as StoredSegment[] | undefined) ?? [])));
      next = offset + (item.l as number);
    }
  }
  if (!more && meta.layout && next !== meta.length) throw new StaleLayout();
  if (from > 0 && parts.length === 0 && !more) throw new StaleLayout();
  return { version: meta.version ?? 0, from, text: parts.join(''), segments, next: more ? next : null };
}
