import { bumpTokenVersion } from '../../db/users.ts';
import { Reply, route } from '../../lib/http.ts';
import { securityEvent } from '../../lib/log.ts';
import { clearedSessionCookie } from '../../lib/session-cookie.ts';

/** Ends every session of the user, on every device (this one too: its cookie is cleared). */
export const handler = route('logoutEverywhere', async ({ user, sourceIp }) => {
  await bumpTokenVersion(user.id);
  securityEvent('logout_everywhere', { user_id: user.id, source_ip: sourceIp });
  return new Reply(200, { ok: true }, { 'set-cookie': clearedSessionCookie() });
});
