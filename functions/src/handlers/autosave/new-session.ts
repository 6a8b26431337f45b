import { createSession } from '../../db/autosave-sessions.ts';
import { route } from '../../lib/http.ts';

export const handler = route('autosaveSessionId', async ({ user }) => ({ sessionId: await createSession(user.id) }));
