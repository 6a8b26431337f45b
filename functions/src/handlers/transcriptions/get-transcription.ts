import { getTranscription } from '../../db/transcriptions.ts';
import { notFound } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';

export const handler = route('getTranscription', async ({ user, params }) => {
  const found = await getTranscription(user.id, params.id);
  if (!found) throw notFound('Transcription not found');
  return found;
});
