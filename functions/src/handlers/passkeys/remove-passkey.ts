import { deletePasskey, getPasskey, listPasskeys, setPasskeyRequired } from '../../db/passkeys.ts';
import { deleteRecoveryCodes } from '../../db/recovery-codes.ts';
import { passkeyChangedMail } from '../../domain/mail-copy.ts';
import { env } from '../../lib/env.ts';
import { notFound } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';
import { log, securityEvent } from '../../lib/log.ts';
import { sendMail } from '../../lib/mail.ts';

/**
 * DELETE /api/me/passkeys/{id}: removes one of the caller's passkeys (only theirs: any other id is
 * 404). Without passkeys left, sign-in no longer requires one and the recovery codes go too. A
 * notice goes to the user's address.
 */
export const handler = route('removePasskey', async ({ params, user, sourceIp }) => {
  const passkey = await getPasskey(user.id, params.id);
  if (!passkey || !(await deletePasskey(user.id, params.id))) throw notFound('No such passkey.', 'passkey_not_found');
  if ((await listPasskeys(user.id)).length === 0) {
    if (user.passkeyRequired) await setPasskeyRequired(user.id, false);
    await deleteRecoveryCodes(user.id);
  }
  securityEvent('passkey_removed', { user_id: user.id, source_ip: sourceIp });
  try {
    await sendMail({ to: user.email, ...passkeyChangedMail(user.language, user.name, passkey.name, 'removed', `${env().APP_URL}/profile`) });
  } catch (err) {
    log.error('passkey-removed notice not sent', { user_id: user.id, error: { message: err instanceof Error ? err.message : String(err) } });
  }
  return { ok: true as const };
});
