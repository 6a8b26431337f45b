import { getUser } from '../../db/users.ts';
import { toPublicUser } from '../../domain/users.ts';
import { startSession } from '../../lib/auth.ts';
import { unauthorized } from '../../lib/errors.ts';
import { Reply, route } from '../../lib/http.ts';
import { securityEvent } from '../../lib/log.ts';
import { signedByPasskey } from '../../lib/passkeys.ts';

/**
 * POST /api/auth/passkey: ends a sign-in ceremony with a passkey's signature on its challenge
 * (spent whatever the outcome, so an answer cannot be replayed). A passwordless ceremony takes the
 * passkey of whichever user its answer names; a password sign-in's second step only one of the
 * user who gave the password. The passkey's counter, backup state and last use are recorded. Every
 * refusal is the same 401; a finished sign-in sets the same session cookie as a password.
 */
export const handler = route('passkeySignIn', async ({ body, sourceIp }) => {
  const signed = await signedByPasskey(body.flow, body.credential);
  const user = signed.verified && signed.userId ? await getUser(signed.userId) : undefined;
  if (!user) {
    securityEvent('passkey_sign_in_failed', { user_id: signed.userId ?? null, source_ip: sourceIp });
    throw unauthorized('This passkey could not sign you in. Try again, or use another way to sign in.', 'passkey_refused');
  }
  return new Reply(200, { user: toPublicUser(user) }, { 'set-cookie': await startSession(user) });
});
