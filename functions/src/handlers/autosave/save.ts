import { appendDelta, saveFull } from '../../db/autosave-sessions.ts';
import { placeSegments } from '../../domain/text.ts';
import { badRequest, HttpError, notFound } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';

/**
 * A delta appends at `offset` (a retry writes no text but brings the metadata up to date, a gap
 * is 409 with the server's length); the spec's full body also works. Segments that do not
 * match the text are refused before anything is read or written.
 */
export const handler = route('autosaveSave', async ({ user, body }) => {
  let outcome;
  if ('offset' in body) {
    const segments = placeSegments(body.text, body.offset, body.segments);
    if ('error' in segments) throw badRequest(segments.error, 'invalid_segments');
    outcome = await appendDelta(user.id, body.sessionId, { ...body, segments: segments.placed });
  } else {
    outcome = await saveFull(user.id, body.sessionId, body);
  }
  if (outcome.status === 'missing') throw notFound('Unknown session');
  if (outcome.status === 'gap') {
    throw new HttpError(409, 'The server is missing earlier text: resend from its length.', { code: 'autosave_gap', length: outcome.length });
  }
  return { length: outcome.length };
});
