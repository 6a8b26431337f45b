import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import type { RecognitionLanguage } from '@app/shared/constants';
import type { TranscriptionDetail, TranscriptionSummary } from '@app/shared/schemas/transcriptions';
import { createdAtOf, normaliseForSearch, preview, splitIntoChunks, type StoredSegment } from '../domain/text.ts';
import { db, nowIso, tableName } from './client.ts';
import { keys } from './keys.ts';
import { deleteWithChunks, getMetaMany, listMeta, putChunks, readChunks, searchIds, type PageRequest } from './chunk-store.ts';

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
  const [meta] = await getMetaMany<TranscriptionItem>(userId, 'TRANS', [id]);
  if (!meta) return undefined;
  const { text, segments } = await readChunks(userId, 'TRANS', id);
  return { ...toSummary(meta), fullTranscript: text, segments };
}

export const deleteTranscription = (userId: string, id: string) => deleteWithChunks(userId, 'TRANS', id);

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
  };
}
