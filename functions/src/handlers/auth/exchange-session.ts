import { authResponse } from '@app/shared/schemas/auth';
import { toPublicUser } from '../../domain/users.ts';
import { authenticateLegacyToken, startSession } from '../../lib/auth.ts';
import { unauthorized } from '../../lib/errors.ts';
import { Reply, route } from '../../lib/http.ts';
import { securityEvent } from '../../lib/log.ts';

/**
 * Moves a session of an earlier version into the session cookie: the page sends the token it kept
 * in device storage once, as a Bearer header, then deletes its copy. A valid one (younger than the
 * token lifetime, of the user's tokenVersion, docs/sessions.md) starts a cookie session that
 * counts its absolute lifetime from now; anything else is 401, and the page then shows a visitor.
 */
export const handler = route('exchangeSession', async ({ headers, sourceIp }) => {
  const token = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(headers.authorization?.trim() ?? '')?.[1];
  if (!token) throw unauthorized('No session to move: send the session token of the earlier version as a Bearer header.');
  const user = await authenticateLegacyToken(token);
  securityEvent('session_exchanged', { user_id: user.id, source_ip: sourceIp });
  return new Reply(200, authResponse.parse({ user: toPublicUser(user) }), { 'set-cookie': await startSession(user) });
});
