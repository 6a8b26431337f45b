import type { z } from 'zod';
import type { updateTranscriptionRequest } from '@app/shared/schemas/transcriptions';
import type { EditOutcome } from '../db/chunk-store.ts';
import { hitRateLimit, type RateRule } from '../db/rate-limits.ts';
import { placeSegments, type StoredSegment } from '../domain/text.ts';
import { badRequest, conflict, HttpError, notFound, tooMany } from './errors.ts';

/** Edits of transcriptions per user (saving with Ctrl+S often stays far below it). */
export const EDIT_RATE: RateRule = { limit: 60, windowSeconds: 10 * 60 };

type UpdateBody = z.output<typeof updateTranscriptionRequest>;

/**
 * What the two edit routes share: the edit rate limit, the segments checked against the new text
 * (as when saving), and the answers to an edit that did not happen (404 not the caller's, 409
 * `version_conflict` with the version now stored, 409 `in_progress` for an automatic
 * transcription still being written).
 */
export async function applyEdit<T>(
  userId: string,
  body: UpdateBody,
  edit: (change: { version: number; title?: string; fullTranscript?: string; segments?: StoredSegment[] }) => Promise<EditOutcome<T>>,
): Promise<T> {
  const limit = await hitRateLimit('transcript-edit', userId, EDIT_RATE);
  if (!limit.allowed) throw tooMany('Too many edits. Please wait a moment.', limit.secondsLeft);
  let segments: StoredSegment[] | undefined;
  if (body.segments && body.fullTranscript !== undefined) {
    const placed = placeSegments(body.fullTranscript, 0, body.segments);
    if ('error' in placed) throw badRequest(placed.error, 'invalid_segments');
    segments = placed.placed;
  }
  const outcome = await edit({ version: body.version, title: body.title, fullTranscript: body.fullTranscript, segments });
  switch (outcome.status) {
    case 'ok':
      return outcome.meta;
    case 'missing':
      throw notFound('Transcription not found');
    case 'conflict':
      throw new HttpError(409, 'This transcription was changed elsewhere since you opened it.', { code: 'version_conflict', version: outcome.version });
    case 'refused':
      throw conflict('This transcription is still being written: it can be edited once it is finished.', 'in_progress');
  }
}
