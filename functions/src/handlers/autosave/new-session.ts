import { createAutomaticTranscription } from '../../db/automatic-transcriptions.ts';
import { route } from '../../lib/http.ts';

/** The session the client's idempotency key names, opened by the first request with it. */
export const handler = route('autosaveSessionId', async ({ user, query }) => ({ sessionId: await createAutomaticTranscription(user.id, query.key) }));
