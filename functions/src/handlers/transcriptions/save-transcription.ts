import { createTranscription } from '../../db/transcriptions.ts';
import { route } from '../../lib/http.ts';

export const handler = route('saveTranscription', async ({ user, body }) => createTranscription(user.id, body));
