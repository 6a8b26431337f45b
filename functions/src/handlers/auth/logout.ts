import { bumpTokenVersion } from '../../db/users.ts';
import { route } from '../../lib/http.ts';

/** Logout ends the session on the server: every token of this user (all devices) stops working. */
export const handler = route('logout', async ({ user }) => {
  await bumpTokenVersion(user.id);
  return { ok: true as const };
});
