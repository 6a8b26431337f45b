import { updateAutomaticTranscription } from '../../db/automatic-transcriptions.ts';
import { route } from '../../lib/http.ts';
import { applyEdit } from '../../lib/transcript-edit.ts';

export const handler = route('updateAutomaticTranscription', ({ user, params, body }) =>
  applyEdit(user.id, body, (change) => updateAutomaticTranscription(user.id, params.id, change)),
);
