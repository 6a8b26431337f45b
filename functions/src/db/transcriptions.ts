import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import type { RecognitionLanguage } from '@app/shared/constants';
import type { TranscriptionDetail, TranscriptionSummary } from '@app/shared/schemas/transcriptions';
import { createdAtOf, normaliseForSearch, preview, splitIntoChunks, type StoredSegment } from '../domain/text.ts';
import { db, nowIso, tableName } from './client.ts';
import { keys } from './keys.ts';
import { deleteWithChunks, editTranscript, getMeta, getMetaMany, listMeta, listMetaAfter, putChunks, readWithChunks, searchIds, type EditOutcome, type PageRequest } from './chunk-store.ts';

/** Saved transcriptions (Pro): metadata `TRANS#<ulid>` and text chunks `TRANSC#<ulid>#<offset>`. */
interface TranscriptionItem {
  id: string;
  title: string;
  normTitle: string;
  subject: string;
  timestamp: string;
  duration: number;
  language: RecognitionLanguage | null;
  preview: string;
  length: number;
  createdAt: string;
  /** Counts edits; absent until the first (chunk-store.ts editTranscript). */
  version?: number;
  /** Which chunks hold the text once edited (chunk-store.ts). */
  layout?: string;
}

export interface NewTranscription {
  title: string;
  subject?: string;
  timestamp?: string;
  duration: number;
  fullTranscript: string;
  /** Already placed in `fullTranscript` (domain/text.ts placeSegments). */
  segments: StoredSegment[];
  language?: RecognitionLanguage;
}

/** Writes the chunks first and the metadata last, so a listed transcription always has its text. */
export async function createTranscription(userId: string, input: NewTranscription): Promise<TranscriptionSummary> {
  const id = ulid();
  const text = input.fullTranscript;
  const pieces = splitIntoChunks(text, 0, input.segments, '');
  await putChunks(userId, 'TRANS', id, pieces);
  const now = nowIso();
  const item: TranscriptionItem = {
    id,
    title: input.title,
    normTitle: normaliseForSearch(input.title),
    subject: input.subject || input.title,
    timestamp: input.timestamp ?? now,
    duration: input.duration,
    language: input.language ?? null,
    preview: preview(text),
    length: text.length,
    createdAt: createdAtOf(id),
  };
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.transcript(userId, 'TRANS', id), type: 'transcription', ...item, updatedAt: now },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
  return toSummary(item);
}

export async function listTranscriptions(userId: string, page: PageRequest & { q?: string }) {
  if (page.q) {
    const ids = await searchIds(userId, 'TRANS', { ...page, q: page.q, titleAttr: 'normTitle' });
    const items = await getMetaMany<TranscriptionItem>(userId, 'TRANS', ids.slice(0, page.limit));
    items.sort((a, b) => (a.id < b.id ? 1 : -1));
    return { items: items.map(toSummary), more: ids.length > page.limit };
  }
  const { items, more } = await listMeta<TranscriptionItem>(userId, 'TRANS', page);
  return { items: items.map(toSummary), more };
}

export async function getTranscription(userId: string, id: string): Promise<TranscriptionDetail | undefined> {
  const found = await readWithChunks(userId, 'TRANS', id, () => getMeta<TranscriptionItem>(userId, 'TRANS', id));
  return found && { ...toSummary(found.meta), fullTranscript: found.text, segments: found.segments };
}

export interface TranscriptionChange {
  version: number;
  title?: string;
  fullTranscript?: string;
  /** Placed in `fullTranscript`; without them the old segments' timing carries over. */
  segments?: StoredSegment[];
}

/** Edits a saved transcription's text and/or title on the version read (chunk-store.ts editTranscript). */
export async function updateTranscription(userId: string, id: string, change: TranscriptionChange): Promise<EditOutcome<TranscriptionSummary>> {
  const outcome = await editTranscript<TranscriptionItem>(userId, 'TRANS', id, {
    version: change.version,
    text: change.fullTranscript === undefined ? undefined : { fullTranscript: change.fullTranscript, segments: change.segments },
    set: change.title === undefined ? undefined : { title: change.title, normTitle: normaliseForSearch(change.title) },
  });
  return outcome.status === 'ok' ? { status: 'ok', meta: toSummary(outcome.meta) } : outcome;
}

export const deleteTranscription = (userId: string, id: string) => deleteWithChunks(userId, 'TRANS', id);

/** Every saved transcription, oldest first, a page after `afterId` (the export). */
export async function listTranscriptionsAfter(userId: string, afterId: string | undefined, limit: number) {
  const { items, more } = await listMetaAfter<TranscriptionItem>(userId, 'TRANS', afterId, limit);
  return { items: items.map(toSummary), more };
}

function toSummary(item: TranscriptionItem): TranscriptionSummary {
  return {
    _id: item.id,
    title: item.title,
    subject: item.subject,
    createdAt: item.createdAt,
    timestamp: item.timestamp,
    duration: item.duration,
    language: item.language,
    preview: item.preview,
    length: item.length,
    version: item.version ?? 0,
  };
}
