import { deleteAutomaticTranscription } from '../../db/automatic-transcriptions.ts';
import { notFound } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';

export const handler = route('deleteAutomaticTranscription', async ({ user, params }) => {
  if (!(await deleteAutomaticTranscription(user.id, params.id))) throw notFound('Transcription not found');
  return { ok: true as const };
});
