import { completeAutomaticTranscription } from '../../db/automatic-transcriptions.ts';
import { notFound } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';

export const handler = route('autosaveComplete', async ({ user, body }) => {
  if (!(await completeAutomaticTranscription(user.id, body.sessionId))) throw notFound('Unknown session');
  return { ok: true as const };
});
