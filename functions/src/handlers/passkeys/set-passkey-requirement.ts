import { listPasskeys, setPasskeyRequired } from '../../db/passkeys.ts';
import { conflict } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';
import { assertRecentSignIn } from '../../lib/passkeys.ts';

/**
 * PUT /api/me/passkey-requirement: whether a password sign-in also needs a passkey (or a recovery
 * code); after a recent sign-in or the current password. Turning it on needs a passkey (409).
 */
export const handler = route('setPasskeyRequirement', async ({ body, user, session, sourceIp }) => {
  await assertRecentSignIn(user, session, body.currentPassword, sourceIp);
  if (body.required && (await listPasskeys(user.id)).length === 0) throw conflict('Add a passkey first.', 'no_passkeys');
  await setPasskeyRequired(user.id, body.required);
  return { required: body.required };
});
