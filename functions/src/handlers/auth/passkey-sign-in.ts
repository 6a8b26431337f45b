import { getPasskey, passkeyIdOf, recordPasskeyUse } from '../../db/passkeys.ts';
import { getUser } from '../../db/users.ts';
import { toPublicUser } from '../../domain/users.ts';
import { startSession } from '../../lib/auth.ts';
import { unauthorized } from '../../lib/errors.ts';
import { Reply, route } from '../../lib/http.ts';
import { securityEvent } from '../../lib/log.ts';
import { takeSignInCeremony, userIdOfAssertion, verifyAssertion } from '../../lib/passkeys.ts';

/**
 * POST /api/auth/passkey: ends a sign-in ceremony with a passkey's signature on its challenge
 * (spent whatever the outcome, so an answer cannot be replayed). A passwordless ceremony takes the
 * passkey of whichever user its answer names; a password sign-in's second step only one of the
 * user who gave the password. The passkey's counter, backup state and last use are recorded, and
 * the session cookie is set as a password sign-in sets it. Every failure is the same 401.
 */
export const handler = route('passkeySignIn', async ({ body, sourceIp }) => {
  const ceremony = await takeSignInCeremony(body.flow);
  const named = userIdOfAssertion(body.credential);
  const userId = ceremony.userId ?? named;
  const refused = () => {
    securityEvent('passkey_sign_in_failed', { user_id: ceremony.userId ?? null, source_ip: sourceIp });
    return unauthorized('This passkey could not sign you in. Try again, or use another way to sign in.', 'passkey_refused');
  };
  if (!userId || (named !== undefined && named !== userId)) throw refused();
  const passkey = await getPasskey(userId, passkeyIdOf(body.credential.id));
  if (!passkey) throw refused();
  const use = await verifyAssertion(ceremony, passkey, body.credential);
  if (!use) throw refused();
  const user = await getUser(userId);
  if (!user) throw refused();
  await recordPasskeyUse(userId, passkey.id, use);
  return new Reply(200, { user: toPublicUser(user) }, { 'set-cookie': await startSession(user) });
});
