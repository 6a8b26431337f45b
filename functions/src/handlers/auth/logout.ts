import { revokeSession } from '../../db/revoked-sessions.ts';
import { sessionExpiry } from '../../domain/sessions.ts';
import { Reply, route } from '../../lib/http.ts';
import { securityEvent } from '../../lib/log.ts';
import { clearedSessionCookie } from '../../lib/session-cookie.ts';

/**
 * Logout ends this session on the server (its token is refused from now on, wherever a copy of it
 * is) and clears the session cookie; the user's other sessions go on (sign out everywhere ends them).
 */
export const handler = route('logout', async ({ user, session, sourceIp }) => {
  await revokeSession(session.sid, sessionExpiry(session.authTime, session.issuedAt));
  securityEvent('logout', { user_id: user.id, source_ip: sourceIp });
  return new Reply(200, { ok: true }, { 'set-cookie': clearedSessionCookie() });
});
