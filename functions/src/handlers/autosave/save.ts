import { appendDelta, saveFull } from '../../db/autosave-sessions.ts';
import { HttpError, notFound } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';

/** A delta appends at `offset` (a retry is a no-op, a gap is 409 with the server's length); the spec's full body also works. */
export const handler = route('autosaveSave', async ({ user, body }) => {
  const outcome =
    'offset' in body
      ? await appendDelta(user.id, body.sessionId, body)
      : await saveFull(user.id, body.sessionId, body);
  if (outcome.status === 'missing') throw notFound('Unknown session');
  if (outcome.status === 'gap') {
    throw new HttpError(409, 'The server is missing earlier text: resend from its length.', { code: 'autosave_gap', length: outcome.length });
  }
  return { length: outcome.length };
});
