import { listPasskeys } from '../../db/passkeys.ts';
import { conflict } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';
import { assertRecentSignIn, newRecoveryCodes } from '../../lib/passkeys.ts';

/**
 * POST /api/me/recovery-codes: new recovery codes (the old ones stop working), answered this once;
 * after a recent sign-in or the current password, and only with a passkey (409).
 */
export const handler = route('createRecoveryCodes', async ({ body, user, session, sourceIp }) => {
  await assertRecentSignIn(user, session, body.currentPassword, sourceIp);
  if ((await listPasskeys(user.id)).length === 0) throw conflict('Add a passkey first: recovery codes stand in for a lost passkey.', 'no_passkeys');
  return { recoveryCodes: await newRecoveryCodes(user.id) };
});
