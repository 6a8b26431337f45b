import { route } from '../../lib/http.ts';
import { assertRecentSignIn, passkeysWithRoom, startRegistration } from '../../lib/passkeys.ts';

/**
 * POST /api/me/passkeys/options: a new passkey's ceremony, bound to this session (another session
 * of the user cannot finish it), after a recent sign-in or the current password; none past
 * PASSKEYS_MAX (409). The caller's passkeys are excluded, so none is made twice.
 */
export const handler = route('startPasskeyRegistration', async ({ body, user, session, sourceIp }) => {
  await assertRecentSignIn(user, session, body.currentPassword, sourceIp);
  return startRegistration(user, session, await passkeysWithRoom(user.id));
});
