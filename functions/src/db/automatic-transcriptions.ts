import { DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { FREE_RECOGNITION_LANGUAGE, PREVIEW_CHARS, type RecognitionLanguage } from '@app/shared/constants';
import type { AutomaticTranscriptionSummary } from '@app/shared/schemas/transcriptions';
import { createdAtOf, decodeSearchable, monthRange, preview, splitIntoChunks, type Searchable, type StoredSegment } from '../domain/text.ts';
import { db, isConditionFailure, nowIso, nowSeconds, tableName } from './client.ts';
import { keys } from './keys.ts';
import { queryPages } from './pages.ts';
import {
  chunkItem,
  deleteChunks,
  deleteWithChunks,
  editTranscript,
  getMetaMany,
  lastChunk,
  listMeta,
  listMetaAfter,
  putChunks,
  readChunks,
  readWithChunks,
  searchIds,
  type EditOutcome,
  type PageRequest,
} from './chunk-store.ts';

/**
 * Automatic transcriptions: metadata `AUTO#<ulid>` (language, duration, completion, preview,
 * and `length` for lists) and text chunks `AUTOC#<ulid>#<offset>`, one per delta.
 */
export interface AutomaticTranscriptionItem {
  id: string;
  language: RecognitionLanguage;
  isCompleted: boolean;
  duration: number;
  preview: string;
  length: number;
  createdAt: string;
  updatedAt: string;
  /** Counts edits; absent until the first (chunk-store.ts editTranscript). */
  version?: number;
  /** Which chunks hold the text once edited (chunk-store.ts). */
  layout?: string;
  /** Given by its owner when editing. */
  title?: string;
}

/** How long a client's idempotency key keeps naming its session: longer than a device keeps an unsent session queued in practice. */
export const SESSION_KEY_TTL_SECONDS = 30 * 24 * 60 * 60;

/**
 * Opens an automatic transcription. With the client's idempotency `key` (made on the device
 * before any request), every call with that key gives the one session the first call opened:
 * the session and `AUTOKEY#<key>` are put together on condition that the key is new, so
 * retries, reloads and duplicated requests never open a second, empty one. The key lives
 * under the caller's partition, so one user's key never names another user's session. Once
 * the session is deleted, its key still names it (the client then drops what it queued).
 *
 * `keepAtMost` (a free account's monthly allowance): a new session is kept only while the
 * calendar month (UTC) then holds at most that many. It is put first and the month's sessions
 * counted after (a strongly consistent read), so of sessions opened at the same moment the
 * count of the last one put sees them all, and the allowance is never passed. A session past
 * it is taken back with its key, and the answer is null. A key that already names a session
 * gives that session, whatever the count.
 */
export async function createAutomaticTranscription(
  userId: string,
  key?: string,
  { language = FREE_RECOGNITION_LANGUAGE, keepAtMost }: { language?: RecognitionLanguage; keepAtMost?: number } = {},
): Promise<string | null> {
  const opened = await openSession(userId, key, language);
  if (keepAtMost === undefined || !opened.created) return opened.id;
  if ((await countAutomaticTranscriptionsThisMonth(userId, new Date(createdAtOf(opened.id)))) <= keepAtMost) return opened.id;
  await takeBack(userId, opened.id, key);
  return null;
}

/** Puts a new session (and its key), or finds the one the key already names (`created` false). */
async function openSession(userId: string, key: string | undefined, language: RecognitionLanguage): Promise<{ id: string; created: boolean }> {
  const id = ulid();
  const now = nowIso();
  const item: AutomaticTranscriptionItem = { id, language, isCompleted: false, duration: 0, preview: '', length: 0, createdAt: createdAtOf(id), updatedAt: now };
  const session = {
    TableName: tableName(),
    Item: { ...keys.transcript(userId, 'AUTO', id), type: 'autosaveSession', ...item },
    ConditionExpression: 'attribute_not_exists(PK)',
  };
  if (key === undefined) {
    await db().send(new PutCommand(session));
    return { id, created: true };
  }
  const keyItem = keys.autosaveKey(userId, key);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await db().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: tableName(),
                Item: { ...keyItem, type: 'autosaveKey', sessionId: id, createdAt: now, expiresAt: nowSeconds() + SESSION_KEY_TTL_SECONDS },
                ConditionExpression: 'attribute_not_exists(PK)',
              },
            },
            { Put: session },
          ],
        }),
      );
      return { id, created: true };
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
    // The key is taken (or a concurrent call with it is writing): its session is the answer.
    const out = await db().send(new GetCommand({ TableName: tableName(), Key: keyItem, ConsistentRead: true }));
    const existing = out.Item?.sessionId;
    if (typeof existing === 'string') return { id: existing, created: false };
  }
  throw new Error('automatic transcription: too much contention on a session key');
}

/** Removes a session just opened, and its key, so that a retry with the key asks again. */
async function takeBack(userId: string, id: string, key: string | undefined): Promise<void> {
  const session = { TableName: tableName(), Key: keys.transcript(userId, 'AUTO', id) };
  if (key === undefined) {
    await db().send(new DeleteCommand(session));
    return;
  }
  await db().send(
    new TransactWriteCommand({ TransactItems: [{ Delete: session }, { Delete: { TableName: tableName(), Key: keys.autosaveKey(userId, key) } }] }),
  );
}

export async function getAutomaticTranscription(userId: string, id: string): Promise<AutomaticTranscriptionItem | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.transcript(userId, 'AUTO', id), ConsistentRead: true }));
  return out.Item as AutomaticTranscriptionItem | undefined;
}

export interface Delta {
  offset: number;
  text: string;
  /** Already placed in `text` (domain/text.ts placeSegments), at offsets of the whole transcript. */
  segments: StoredSegment[];
  duration: number;
  language: RecognitionLanguage;
}

/** `edited`: its owner edited it once completed, so autosave no longer writes to it. */
export type AppendOutcome = { status: 'ok'; length: number } | { status: 'gap'; length: number } | { status: 'missing' } | { status: 'edited' };

/**
 * Appends `text` at `offset`. The chunks are the truth: the stored text ends where its last
 * chunk ends, and a chunk is only ever put exactly there, on condition that no chunk holds
 * that offset yet, so the text stays contiguous without a transaction (which would bill
 * twice). What the server already has is skipped; a gap is refused with the server's length
 * so the client resends from there. Then the metadata (length, duration, language, preview)
 * moves forward, never back. A delta with nothing new (a retry, or only a new duration or
 * language) that reaches the end of the stored text still brings the metadata up to date, so
 * a retry repairs a metadata update that failed after its text was written; one that ends
 * before it (a late duplicate) changes nothing.
 */
export async function appendDelta(userId: string, id: string, delta: Delta): Promise<AppendOutcome> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const last = await lastChunk(userId, 'AUTO', id);
    if (last.gen) return { status: 'edited' };
    // Chunks live under the caller's own key, so once there is text the session is theirs;
    // before the first chunk, check that the session exists (and is the caller's).
    const session = last.end === 0 ? await getAutomaticTranscription(userId, id) : undefined;
    if (last.end === 0 && !session) return { status: 'missing' };
    if (delta.offset > last.end) return { status: 'gap', length: last.end };
    const fresh = delta.text.slice(last.end - delta.offset);
    if (!fresh) {
      if (delta.offset + delta.text.length < last.end) return { status: 'ok', length: last.end };
      const meta = session ?? (await getAutomaticTranscription(userId, id));
      if (!meta) return { status: 'missing' };
      await catchUpMeta(userId, id, meta, last.end, delta);
      return { status: 'ok', length: last.end };
    }
    const segments = delta.segments.filter(([, , at]) => at >= last.end);
    try {
      for (const piece of splitIntoChunks(fresh, last.end, segments, last.overlap)) {
        await db().send(
          new PutCommand({ TableName: tableName(), Item: chunkItem(userId, 'AUTO', id, piece), ConditionExpression: 'attribute_not_exists(PK)' }),
        );
      }
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      continue; // another save got there first: read the end again and apply what is still missing
    }
    const length = last.end + fresh.length;
    await advanceMeta(userId, id, length, delta, last.end < PREVIEW_CHARS ? await previewOf(userId, id) : undefined);
    return { status: 'ok', length };
  }
  throw new Error('automatic transcription: too much contention');
}

/** Nothing new to write: the metadata takes the stored length (and preview) and the delta's duration and language, if any differs. */
async function catchUpMeta(userId: string, id: string, meta: AutomaticTranscriptionItem, end: number, delta: Pick<Delta, 'duration' | 'language'>) {
  const behind = meta.length < end;
  if (!behind && meta.duration === delta.duration && meta.language === delta.language) return;
  await advanceMeta(userId, id, end, delta, behind && meta.length < PREVIEW_CHARS ? await previewOf(userId, id) : undefined);
}

async function previewOf(userId: string, id: string): Promise<string> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.userPk(userId), ':prefix': keys.transcriptChunkPrefix('AUTO', id) },
      ProjectionExpression: 'n, o, x',
      Limit: 4,
      ConsistentRead: true,
    }),
  );
  return preview((out.Items ?? []).map((i) => decodeSearchable(i as Searchable)).join(''));
}

/** Moves length, duration and language forward (never back); one small write. */
async function advanceMeta(userId: string, id: string, length: number, delta: Pick<Delta, 'duration' | 'language'>, newPreview?: string) {
  const values: Record<string, unknown> = { ':len': length, ':d': delta.duration, ':l': delta.language, ':now': nowIso() };
  let set = '#length = :len, #duration = :d, #language = :l, updatedAt = :now';
  if (newPreview !== undefined) {
    set += ', preview = :p';
    values[':p'] = newPreview;
  }
  await db()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.transcript(userId, 'AUTO', id),
        UpdateExpression: `SET ${set}`,
        ConditionExpression: 'attribute_exists(PK) AND #length <= :len',
        ExpressionAttributeNames: { '#length': 'length', '#duration': 'duration', '#language': 'language' },
        ExpressionAttributeValues: values,
      }),
    )
    .catch((err: unknown) => {
      if (!isConditionFailure(err)) throw err; // a later save already moved it further
    });
}

/**
 * The full body: the whole transcript. When it extends what the server has, only the new
 * part is written; otherwise (the text was edited) the stored text is replaced.
 */
export async function saveFull(userId: string, id: string, full: { fullTranscript: string; duration: number; language: RecognitionLanguage }): Promise<AppendOutcome> {
  const meta = await getAutomaticTranscription(userId, id);
  if (!meta) return { status: 'missing' };
  if (meta.version) return { status: 'edited' };
  const current = await readChunks(userId, 'AUTO', id);
  if (full.fullTranscript.startsWith(current.text)) {
    return appendDelta(userId, id, { offset: current.text.length, text: full.fullTranscript.slice(current.text.length), segments: [], duration: full.duration, language: full.language });
  }
  await deleteChunks(userId, 'AUTO', id);
  const text = full.fullTranscript;
  await putChunks(userId, 'AUTO', id, splitIntoChunks(text, 0, [], ''));
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.transcript(userId, 'AUTO', id),
      UpdateExpression: 'SET #length = :len, #duration = :duration, #language = :language, preview = :preview, updatedAt = :now',
      ExpressionAttributeNames: { '#length': 'length', '#duration': 'duration', '#language': 'language' },
      ExpressionAttributeValues: {
        ':len': text.length,
        ':duration': Math.max(meta.duration, full.duration),
        ':language': full.language,
        ':preview': preview(text),
        ':now': nowIso(),
      },
    }),
  );
  return { status: 'ok', length: text.length };
}

/** Marks the automatic transcription finished; false when it is not the caller's. */
export async function completeAutomaticTranscription(userId: string, id: string): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.transcript(userId, 'AUTO', id),
        UpdateExpression: 'SET isCompleted = :t, updatedAt = :now',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':t': true, ':now': nowIso() },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

export async function listAutomaticTranscriptions(userId: string, page: PageRequest & { q?: string; completed?: boolean }) {
  if (page.q) {
    const ids = await searchIds(userId, 'AUTO', { ...page, q: page.q });
    let items = await getMetaMany<AutomaticTranscriptionItem>(userId, 'AUTO', ids.slice(0, page.limit));
    if (page.completed !== undefined) items = items.filter((i) => i.isCompleted === page.completed);
    items.sort((a, b) => (a.id < b.id ? 1 : -1));
    return { items: items.map(toSummary), more: ids.length > page.limit, lastId: ids.slice(0, page.limit).at(-1) };
  }
  const filter =
    page.completed === undefined ? undefined : { expression: 'isCompleted = :completed', values: { ':completed': page.completed } };
  const { items, more } = await listMeta<AutomaticTranscriptionItem>(userId, 'AUTO', { ...page, filter });
  return { items: items.map(toSummary), more, lastId: items.at(-1)?.id };
}

/** The automatic transcriptions of the calendar month (UTC) of `now` the user has (a strongly consistent count). */
export async function countAutomaticTranscriptionsThisMonth(userId: string, now = new Date()): Promise<number> {
  const month = now.toISOString().slice(0, 7);
  const { lo, hi } = monthRange(month);
  const b = keys.transcriptSkBounds('AUTO', lo, hi);
  let count = 0;
  const pages = queryPages({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :lo AND :hi',
    ExpressionAttributeValues: { ':pk': keys.userPk(userId), ':lo': b.lo, ':hi': b.hi },
    Select: 'COUNT',
    ConsistentRead: true,
  });
  for await (const out of pages) count += out.Count ?? 0;
  return count;
}

export async function getAutomaticTranscriptionDetail(userId: string, id: string) {
  const found = await readWithChunks(userId, 'AUTO', id, () => getAutomaticTranscription(userId, id));
  return found && { ...toSummary(found.meta), fullTranscript: found.text, segments: found.segments };
}

/**
 * Edits a completed automatic transcription's text and/or title on the version read
 * (chunk-store.ts editTranscript); `refused` while it is still being written.
 */
export async function updateAutomaticTranscription(
  userId: string,
  id: string,
  change: { version: number; title?: string; fullTranscript?: string; segments?: StoredSegment[] },
): Promise<EditOutcome<AutomaticTranscriptionSummary>> {
  const outcome = await editTranscript<AutomaticTranscriptionItem>(userId, 'AUTO', id, {
    version: change.version,
    text: change.fullTranscript === undefined ? undefined : { fullTranscript: change.fullTranscript, segments: change.segments },
    set: change.title === undefined ? undefined : { title: change.title },
    condition: { expression: 'isCompleted = :completed', values: { ':completed': true }, holds: (meta) => meta.isCompleted === true },
  });
  return outcome.status === 'ok' ? { status: 'ok', meta: toSummary(outcome.meta) } : outcome;
}

export const deleteAutomaticTranscription = (userId: string, id: string) => deleteWithChunks(userId, 'AUTO', id);

/** Every automatic transcription, oldest first, a page after `afterId` (the export). */
export async function listAutomaticTranscriptionsAfter(userId: string, afterId: string | undefined, limit: number) {
  const { items, more } = await listMetaAfter<AutomaticTranscriptionItem>(userId, 'AUTO', afterId, limit);
  return { items: items.map(toSummary), more };
}

function toSummary(item: AutomaticTranscriptionItem): AutomaticTranscriptionSummary {
  return {
    _id: item.id,
    sessionId: item.id,
    language: item.language,
    isCompleted: item.isCompleted,
    duration: item.duration,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
    preview: item.preview,
    length: item.length,
    version: item.version ?? 0,
    ...(item.title !== undefined && { title: item.title }),
  };
}
