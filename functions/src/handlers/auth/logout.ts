import { bumpTokenVersion } from '../../db/users.ts';
import { route } from '../../lib/http.ts';
import { securityEvent } from '../../lib/log.ts';

/** Logout ends the session on the server: every token of this user (all devices) stops working. */
export const handler = route('logout', async ({ user, sourceIp }) => {
  await bumpTokenVersion(user.id);
  securityEvent('logout', { user_id: user.id, source_ip: sourceIp });
  return { ok: true as const };
});
