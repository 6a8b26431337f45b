import { createSession } from '../../db/autosave-sessions.ts';
import { route } from '../../lib/http.ts';

/** The session the client's idempotency key names, opened by the first request with it. */
export const handler = route('autosaveSessionId', async ({ user, query }) => ({ sessionId: await createSession(user.id, query.key) }));
