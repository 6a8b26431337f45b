import { getAutomaticTranscriptionDetail } from '../../db/automatic-transcriptions.ts';
import { notFound } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';

export const handler = route('getAutomaticTranscription', async ({ user, params }) => {
  const found = await getAutomaticTranscriptionDetail(user.id, params.id);
  if (!found) throw notFound('Transcription not found');
  return found;
});
