import type { Segment } from '@app/shared/schemas/transcriptions';
import { appendDelta, saveFull } from '../../db/automatic-transcriptions.ts';
import { placeSegments, type StoredSegment } from '../../domain/text.ts';
import { badRequest, HttpError, notFound } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';

/**
 * A delta appends at `offset` (a retry writes no text but brings the metadata up to date, a gap
 * is 409 with the server's length); the full body (the whole transcript) also works. Segments that do not
 * match the text are refused before anything is read or written.
 */
export const handler = route('autosaveSave', async ({ user, body }) => {
  const outcome =
    'offset' in body
      ? await appendDelta(user.id, body.sessionId, { ...body, segments: placed(body.text, body.offset, body.segments) })
      : await saveFull(user.id, body.sessionId, body);
  if (outcome.status === 'missing') throw notFound('Unknown session');
  if (outcome.status === 'gap') {
    throw new HttpError(409, 'The server is missing earlier text: resend from its length.', { code: 'autosave_gap', length: outcome.length });
  }
  return { length: outcome.length };
});

function placed(text: string, offset: number, segments: readonly Segment[]): StoredSegment[] {
  const result = placeSegments(text, offset, segments);
  if ('error' in result) throw badRequest(result.error, 'invalid_segments');
  return result.placed;
}
