import { deletePasskey, getPasskey, listPasskeys, setPasskeyRequired } from '../../db/passkeys.ts';
import { deleteRecoveryCodes } from '../../db/recovery-codes.ts';
import { notFound } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';
import { securityEvent } from '../../lib/log.ts';
import { notifyPasskeyChange } from '../../lib/passkeys.ts';

/**
 * DELETE /api/me/passkeys/{id}: removes one of the caller's passkeys (looked up under the caller's
 * own key: any other id is 404). It needs no recent sign-in: it only takes a way in away. Without
 * passkeys left, sign-in no longer requires one and the recovery codes go too. A notice goes to
 * the user's address.
 */
export const handler = route('removePasskey', async ({ params, user, sourceIp }) => {
  const passkey = await getPasskey(user.id, params.id);
  if (!passkey || !(await deletePasskey(user.id, params.id))) throw notFound('No such passkey.', 'passkey_not_found');
  if ((await listPasskeys(user.id)).length === 0) {
    if (user.passkeyRequired) await setPasskeyRequired(user.id, false);
    await deleteRecoveryCodes(user.id);
  }
  securityEvent('passkey_removed', { user_id: user.id, source_ip: sourceIp });
  await notifyPasskeyChange(user, passkey.name, 'removed');
  return { ok: true as const };
});
