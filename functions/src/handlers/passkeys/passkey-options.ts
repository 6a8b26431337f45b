import { PASSKEYS_MAX } from '@app/shared/constants';
import { listPasskeys } from '../../db/passkeys.ts';
import { conflict } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';
import { assertRecentSignIn, startRegistration } from '../../lib/passkeys.ts';

/**
 * POST /api/me/passkeys/options: a new passkey's ceremony, after a recent sign-in or the current
 * password; none past PASSKEYS_MAX (409).
 */
export const handler = route('passkeyOptions', async ({ body, user, session, sourceIp }) => {
  await assertRecentSignIn(user, session, body.currentPassword, sourceIp);
  const existing = await listPasskeys(user.id);
  if (existing.length >= PASSKEYS_MAX) throw conflict(`You already have ${PASSKEYS_MAX} passkeys. Remove one to add another.`, 'passkeys_full');
  return startRegistration(user, session, existing);
});
