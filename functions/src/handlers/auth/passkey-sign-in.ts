import { LOGIN_WINDOW_SECONDS, RECOVERY_CODE_ATTEMPT_LIMIT } from '@app/shared/constants';
import type { PasskeySignInRequest } from '@app/shared/schemas/passkeys';
import { hitRateLimit } from '../../db/rate-limits.ts';
import { countRecoveryCodesLeft, useRecoveryCode } from '../../db/recovery-codes.ts';
import { getUser } from '../../db/users.ts';
import { hashRecoveryCode } from '../../domain/recovery-codes.ts';
import { toPublicUser, type User } from '../../domain/users.ts';
import { startSession } from '../../lib/auth.ts';
import { badRequest, tooMany, unauthorized } from '../../lib/errors.ts';
import { Reply, route } from '../../lib/http.ts';
import { securityEvent } from '../../lib/log.ts';
import { openSecondFactor, signedByPasskey, startAuthentication } from '../../lib/passkeys.ts';

type Step<S extends PasskeySignInRequest['step']> = Extract<PasskeySignInRequest, { step: S }>;

const ATTEMPTS = { limit: RECOVERY_CODE_ATTEMPT_LIMIT, windowSeconds: LOGIN_WINDOW_SECONDS };

/** A finished sign-in: the user, and the session cookie a password sign-in sets. */
const signedIn = async (user: User) => new Reply(200, { user: toPublicUser(user) }, { 'set-cookie': await startSession(user) });

/**
 * `passkey`: ends a sign-in ceremony with a passkey's signature on its challenge (spent whatever
 * the outcome, so an answer cannot be replayed). A passwordless ceremony takes the passkey of
 * whichever user its answer names; a password sign-in's second step only one of the user who gave
 * the password. The passkey's counter, backup state and last use are recorded. Every refusal is
 * the same 401.
 */
async function withPasskey({ flow, credential }: Step<'passkey'>, sourceIp: string): Promise<Reply> {
  const signed = await signedByPasskey(flow, credential);
  const user = signed.verified && signed.userId ? await getUser(signed.userId) : undefined;
  if (!user) {
    securityEvent('passkey_sign_in_failed', { user_id: signed.userId ?? null, source_ip: sourceIp });
    throw unauthorized('This passkey could not sign you in. Try again, or use another way to sign in.', 'passkey_refused');
  }
  return signedIn(user);
}

/**
 * `recovery-code`: ends a password sign-in's second step with a recovery code. Tries are counted
 * per account before the check; a right code is spent (each works once) and its use recorded;
 * then the second step ends.
 */
async function withRecoveryCode({ flow, code }: Step<'recovery-code'>, sourceIp: string): Promise<Reply> {
  const step = await openSecondFactor(flow);
  const attempts = await hitRateLimit('recovery-code', step.userId, ATTEMPTS);
  if (!attempts.allowed) throw tooMany('Too many recovery codes tried. Wait a moment and try again.', attempts.secondsLeft, 'recovery_code_rate_limited');
  if (!(await useRecoveryCode(step.userId, hashRecoveryCode(step.userId, code)))) {
    securityEvent('recovery_code_failed', { user_id: step.userId, source_ip: sourceIp });
    throw badRequest('This recovery code is not right, or was already used.', 'recovery_code_invalid');
  }
  const user = (await step.spend()) ? await getUser(step.userId) : undefined;
  if (!user) throw badRequest('This sign-in has expired. Sign in again.', 'passkey_challenge_invalid');
  securityEvent('recovery_code_used', { user_id: user.id, source_ip: sourceIp, codes_left: await countRecoveryCodesLeft(user.id) });
  return signedIn(user);
}

/** POST /api/auth/passkey: a passkey sign-in's steps (the route table says which). */
export const handler = route('passkeySignIn', async ({ body, sourceIp }) => {
  switch (body.step) {
    case 'options':
      return startAuthentication();
    case 'passkey':
      return withPasskey(body, sourceIp);
    case 'recovery-code':
      return withRecoveryCode(body, sourceIp);
  }
});
