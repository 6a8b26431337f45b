import { route } from '../../lib/http.ts';
import { startAuthentication } from '../../lib/passkeys.ts';

/**
 * POST /api/auth/passkey/options: a passwordless sign-in's ceremony (discoverable credentials: any
 * passkey of the site may answer it, its user handle naming the account); its challenge is kept
 * server-side, single-use. Deleting the account with a passkey answers one too.
 */
export const handler = route('startPasskeySignIn', () => startAuthentication());
