import { updateTranscription } from '../../db/transcriptions.ts';
import { route } from '../../lib/http.ts';
import { applyEdit } from '../../lib/transcript-edit.ts';

export const handler = route('updateTranscription', ({ user, params, body }) =>
  applyEdit(user.id, body, (change) => updateTranscription(user.id, params.id, change)),
);
