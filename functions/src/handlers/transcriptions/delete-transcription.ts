import { deleteTranscription } from '../../db/transcriptions.ts';
import { notFound } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';

export const handler = route('deleteTranscription', async ({ user, params }) => {
  if (!(await deleteTranscription(user.id, params.id))) throw notFound('Transcription not found');
  return { ok: true as const };
});
