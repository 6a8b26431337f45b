import { route } from '../../lib/http.ts';
import { startAuthentication } from '../../lib/passkeys.ts';

/** POST /api/auth/passkey/options: a passwordless sign-in's ceremony (the browser offers the site's passkeys; no email asked). */
export const handler = route('passkeySignInOptions', async () => startAuthentication());
