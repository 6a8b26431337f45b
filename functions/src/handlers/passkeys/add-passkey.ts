import { putPasskey } from '../../db/passkeys.ts';
import { toPublicPasskey } from '../../domain/passkeys.ts';
import { conflict } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';
import { securityEvent } from '../../lib/log.ts';
import { finishRegistration, newRecoveryCodes, notifyPasskeyChange, passkeysWithRoom } from '../../lib/passkeys.ts';

/**
 * POST /api/me/passkeys: stores the passkey this session's ceremony made (its challenge spent,
 * whatever the outcome), within PASSKEYS_MAX. The account's first passkey brings new recovery
 * codes, answered this once. A notice goes to the user's address.
 */
export const handler = route('addPasskey', async ({ body, user, session, sourceIp }) => {
  const verified = await finishRegistration(body.flow, user, session, body.credential);
  const existing = await passkeysWithRoom(user.id);
  const stored = await putPasskey({ ...verified, userId: user.id, name: body.name });
  if (!stored) throw conflict('This passkey is already on your account.', 'passkey_exists');
  const recoveryCodes = existing.length === 0 ? await newRecoveryCodes(user.id) : null;
  securityEvent('passkey_added', { user_id: user.id, source_ip: sourceIp });
  await notifyPasskeyChange(user, stored.name, 'added');
  return { passkey: toPublicPasskey(stored), recoveryCodes };
});
