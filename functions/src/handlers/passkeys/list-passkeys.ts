import { listPasskeys } from '../../db/passkeys.ts';
import { countRecoveryCodesLeft } from '../../db/recovery-codes.ts';
import { toPublicPasskey } from '../../domain/passkeys.ts';
import { route } from '../../lib/http.ts';

/** GET /api/me/passkeys: the caller's passkeys (oldest first), their unused recovery codes, and the second factor's switch. */
export const handler = route('listPasskeys', async ({ user }) => {
  const [passkeys, recoveryCodesLeft] = await Promise.all([listPasskeys(user.id), countRecoveryCodesLeft(user.id)]);
  return { passkeys: passkeys.map(toPublicPasskey), recoveryCodesLeft, required: user.passkeyRequired === true };
});
