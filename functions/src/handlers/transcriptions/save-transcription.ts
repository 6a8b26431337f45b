import { createTranscription } from '../../db/transcriptions.ts';
import { placeSegments } from '../../domain/text.ts';
import { badRequest } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';

export const handler = route('saveTranscription', async ({ user, body }) => {
  const segments = placeSegments(body.fullTranscript, 0, body.segments ?? []);
  if ('error' in segments) throw badRequest(segments.error, 'invalid_segments');
  return createTranscription(user.id, { ...body, segments: segments.placed });
});
