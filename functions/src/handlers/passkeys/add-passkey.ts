import { PASSKEYS_MAX } from '@app/shared/constants';
import { listPasskeys, putPasskey } from '../../db/passkeys.ts';
import { passkeyChangedMail } from '../../domain/mail-copy.ts';
import { toPublicPasskey } from '../../domain/passkeys.ts';
import { env } from '../../lib/env.ts';
import { conflict } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';
import { log, securityEvent } from '../../lib/log.ts';
import { sendMail } from '../../lib/mail.ts';
import { finishRegistration, newRecoveryCodes } from '../../lib/passkeys.ts';

/**
 * POST /api/me/passkeys: stores the passkey this session's ceremony made (its challenge spent,
 * whatever the outcome). The account's first passkey brings new recovery codes, answered this once.
 * A notice goes to the user's address in their language.
 */
export const handler = route('addPasskey', async ({ body, user, session, sourceIp }) => {
  const verified = await finishRegistration(body.flow, user, session, body.credential);
  const existing = await listPasskeys(user.id);
  if (existing.length >= PASSKEYS_MAX) throw conflict(`You already have ${PASSKEYS_MAX} passkeys. Remove one to add another.`, 'passkeys_full');
  const stored = await putPasskey({ ...verified, userId: user.id, name: body.name });
  if (!stored) throw conflict('This passkey is already on your account.', 'passkey_exists');
  const recoveryCodes = existing.length === 0 ? await newRecoveryCodes(user.id) : null;
  securityEvent('passkey_added', { user_id: user.id, source_ip: sourceIp });
  try {
    await sendMail({ to: user.email, ...passkeyChangedMail(user.language, user.name, stored.name, 'added', `${env().APP_URL}/profile`) });
  } catch (err) {
    log.error('passkey-added notice not sent', { user_id: user.id, error: { message: err instanceof Error ? err.message : String(err) } });
  }
  return { passkey: toPublicPasskey(stored), recoveryCodes };
});
