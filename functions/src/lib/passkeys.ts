import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { createHash, randomBytes } from 'node:crypto';
import {
  CHANGE_PASSWORD_ATTEMPT_LIMIT,
  LOGIN_WINDOW_SECONDS,
  PASSKEY_CHALLENGE_TTL_SECONDS,
  PASSKEY_REAUTH_SECONDS,
  PASSKEYS_MAX,
  RECOVERY_CODE_COUNT,
} from '@app/shared/constants';
import type { PasskeyCeremony } from '@app/shared/schemas/passkeys';
import { hitRateLimit } from '../db/rate-limits.ts';
import { getPasskey, listPasskeys, passkeyIdOf, recordPasskeyUse, type StoredPasskey } from '../db/passkeys.ts';
import { putRecoveryCodes } from '../db/recovery-codes.ts';
import { getToken, putToken, takeToken } from '../db/single-use-tokens.ts';
import { passkeyChangedMail } from '../domain/mail-copy.ts';
import { verifyPassword } from '../domain/passwords.ts';
import { hashRecoveryCode, newRecoveryCode } from '../domain/recovery-codes.ts';
import type { User } from '../domain/users.ts';
import type { Session } from './auth.ts';
import { env } from './env.ts';
import { badRequest, conflict, forbidden, tooMany } from './errors.ts';
import { log, securityEvent } from './log.ts';
import { sendMail } from './mail.ts';

/**
 * Passkeys (WebAuthn, @simplewebauthn/server): the relying party is the site, its id APP_URL's host
 * name and the one origin a ceremony may come from APP_URL's origin (the local server's locally,
 * the CloudFront domain on AWS: one value, set by the stack).
 */
export function relyingParty(): { id: string; origin: string; name: string } {
  const url = new URL(env().APP_URL);
  return { id: url.hostname, origin: url.origin, name: 'Live Transcribe' };
}

/**
 * What a ceremony is for: adding a passkey (bound to the session that asked), a passwordless
 * sign-in (anyone's passkey), or a password sign-in's second step (bound to that user).
 */
export type Purpose = 'register' | 'sign-in' | 'second-factor';
interface Ceremony {
  purpose: Purpose;
  challenge: string;
  userId?: string;
  sid?: string;
}

const flowHash = (flow: string) => createHash('sha256').update(flow).digest('hex');

/**
 * Keeps a ceremony's challenge server-side, single-use, for PASSKEY_CHALLENGE_TTL_SECONDS, under a
 * random flow id the client sends back with the answer (only its hash is stored).
 */
async function startCeremony(ceremony: Ceremony, options: { challenge: string }): Promise<PasskeyCeremony> {
  const flow = randomBytes(32).toString('base64url');
  await putToken('WEBAUTHN', flowHash(flow), { ...ceremony }, PASSKEY_CHALLENGE_TTL_SECONDS);
  return { flow, options: { ...options } };
}

const expiredCeremony = () => badRequest('This passkey prompt has expired or was already used. Try again.', 'passkey_challenge_invalid');

/** Spends a ceremony of `purpose` (a replay, an expired or unknown flow, another purpose: 400). */
async function takeCeremony(flow: string, purposes: Purpose[]): Promise<Ceremony> {
  const ceremony = await takeToken<Ceremony & Record<string, unknown>>('WEBAUTHN', flowHash(flow));
  if (!ceremony || !purposes.includes(ceremony.purpose)) throw expiredCeremony();
  return ceremony;
}

/**
 * A password sign-in's second step, read without spending it: a wrong recovery code leaves it
 * open (the codes' own limit counts the tries); `spend` ends it (false when it already ended).
 */
export async function openSecondFactor(flow: string): Promise<{ userId: string; spend: () => Promise<boolean> }> {
  const ceremony = await getToken<Ceremony & Record<string, unknown>>('WEBAUTHN', flowHash(flow));
  if (!ceremony || ceremony.purpose !== 'second-factor' || !ceremony.userId) throw expiredCeremony();
  return { userId: ceremony.userId, spend: async () => (await takeToken('WEBAUTHN', flowHash(flow))) !== undefined };
}

/** The user handle a passkey of `userId` carries: the id's UTF-8 bytes. */
const userHandle = (userId: string) => new TextEncoder().encode(userId);

/** A new passkey's ceremony for the signed-in user: a discoverable credential, verified user, none of theirs again. */
export async function startRegistration(user: User, session: Session, existing: StoredPasskey[]): Promise<PasskeyCeremony> {
  const rp = relyingParty();
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.name,
    userID: userHandle(user.id),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports as AuthenticatorTransportFuture[] })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    timeout: PASSKEY_CHALLENGE_TTL_SECONDS * 1000,
  });
  return startCeremony({ purpose: 'register', challenge: options.challenge, userId: user.id, sid: session.sid }, options);
}

/** Verifies a new passkey against this session's ceremony: what to store, or 400. */
export async function finishRegistration(flow: string, user: User, session: Session, credential: RegistrationResponseJSON) {
  const ceremony = await takeCeremony(flow, ['register']);
  if (ceremony.userId !== user.id || ceremony.sid !== session.sid) throw expiredCeremony();
  const rp = relyingParty();
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response: credential,
      expectedChallenge: ceremony.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch {
    verified = undefined;
  }
  if (!verified?.verified) throw badRequest('The passkey could not be verified. Try again.', 'passkey_invalid');
  const info = verified.registrationInfo;
  return {
    credentialId: info.credential.id,
    publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
    counter: info.credential.counter,
    transports: info.credential.transports ?? credential.response.transports ?? [],
    deviceType: info.credentialDeviceType,
    backedUp: info.credentialBackedUp,
  };
}

/**
 * A sign-in ceremony: passwordless (any discoverable passkey of the site) or, given the user who
 * just gave their password, that sign-in's second step.
 */
export async function startAuthentication(secondFactorOf?: User): Promise<PasskeyCeremony> {
  const rp = relyingParty();
  const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'required', timeout: PASSKEY_CHALLENGE_TTL_SECONDS * 1000 });
  const ceremony: Ceremony = secondFactorOf
    ? { purpose: 'second-factor', challenge: options.challenge, userId: secondFactorOf.id }
    : { purpose: 'sign-in', challenge: options.challenge };
  return startCeremony(ceremony, options);
}

/** Spends a sign-in ceremony (either kind): the user it must end with (the second step's) and its challenge. */
export const takeSignInCeremony = (flow: string) => takeCeremony(flow, ['sign-in', 'second-factor']);

/** The user id a discoverable passkey's answer names (its user handle), if it names one. */
export function userIdOfAssertion(credential: AuthenticationResponseJSON): string | undefined {
  const handle = credential.response.userHandle;
  return handle ? Buffer.from(handle, 'base64url').toString('utf8') : undefined;
}

/** Verifies a passkey's signature on the ceremony's challenge: the counter and backup state to record, or undefined. */
export async function verifyAssertion(ceremony: Ceremony, passkey: StoredPasskey, credential: AuthenticationResponseJSON) {
  const rp = relyingParty();
  try {
    const out = await verifyAuthenticationResponse({
      response: credential,
      expectedChallenge: ceremony.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        counter: passkey.counter,
        transports: passkey.transports as AuthenticatorTransportFuture[],
      },
      requireUserVerification: true,
    });
    if (!out.verified) return undefined;
    const info = out.authenticationInfo;
    return { counter: info.newCounter, backedUp: info.credentialBackedUp, deviceType: info.credentialDeviceType };
  } catch {
    return undefined;
  }
}

const ATTEMPTS = { limit: CHANGE_PASSWORD_ATTEMPT_LIMIT, windowSeconds: LOGIN_WINDOW_SECONDS };

/**
 * Adding a passkey, new recovery codes and the second factor's switch need a sign-in at most
 * PASSKEY_REAUTH_SECONDS old, or else the current password (wrong ones counted in the password
 * change's window): a session left open on a shared computer cannot take over the account's
 * sign-in. 403 `reauth_required` without either.
 */
export async function assertRecentSignIn(user: User, session: Session, currentPassword: string | undefined, sourceIp: string): Promise<void> {
  if (currentPassword === undefined) {
    if (Math.floor(Date.now() / 1000) - session.authTime <= PASSKEY_REAUTH_SECONDS) return;
    throw forbidden('Enter your password to continue.', { code: 'reauth_required' });
  }
  const attempts = await hitRateLimit('change-password', user.id, ATTEMPTS);
  if (!attempts.allowed) {
    securityEvent('password_change_rate_limited', { user_id: user.id, source_ip: sourceIp });
    throw tooMany('Too many attempts. Wait a moment and try again.', attempts.secondsLeft, 'change_password_rate_limited');
  }
  if (!(await verifyPassword(currentPassword, user.passwordHash))) {
    securityEvent('password_change_failed', { user_id: user.id, source_ip: sourceIp });
    throw badRequest('The password is not correct.', 'wrong_current_password');
  }
}

/** RECOVERY_CODE_COUNT new recovery codes for the user, stored hashed (replacing any before); the codes in clear, to show once. */
export async function newRecoveryCodes(userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await putRecoveryCodes(userId, codes.map((c) => hashRecoveryCode(userId, c)));
  return codes;
}

/**
 * Ends a sign-in ceremony with a passkey's answer (its challenge spent, whatever the outcome): the
 * id of the user whose passkey signed, its use recorded, or undefined when it does not verify. A
 * passwordless ceremony takes the user its answer names; a second step only its own user; `only`
 * restricts it to one user (a signed-in user confirming it is them).
 */
export async function signedByPasskey(flow: string, credential: AuthenticationResponseJSON, only?: string): Promise<{ userId?: string; verified: boolean }> {
  const ceremony = await takeSignInCeremony(flow);
  const named = userIdOfAssertion(credential);
  const userId = ceremony.userId ?? named;
  if (!userId || (named !== undefined && named !== userId) || (only !== undefined && userId !== only)) return { userId: ceremony.userId, verified: false };
  const passkey = await getPasskey(userId, passkeyIdOf(credential.id));
  const use = passkey && (await verifyAssertion(ceremony, passkey, credential));
  if (!passkey || !use) return { userId, verified: false };
  await recordPasskeyUse(userId, passkey.id, use);
  return { userId, verified: true };
}

/** The user's passkeys, when there is room for one more: at most PASSKEYS_MAX (409 `passkeys_full` past it). */
export async function passkeysWithRoom(userId: string): Promise<StoredPasskey[]> {
  const existing = await listPasskeys(userId);
  if (existing.length >= PASSKEYS_MAX) throw conflict(`You already have ${PASSKEYS_MAX} passkeys. Remove one to add another.`, 'passkeys_full');
  return existing;
}

/** A notice of an added or removed passkey to the user's address, in their language; a lost one is logged, never fatal. */
export async function notifyPasskeyChange(user: User, passkeyName: string, change: 'added' | 'removed'): Promise<void> {
  try {
    await sendMail({ to: user.email, ...passkeyChangedMail(user.language, user.name, passkeyName, change, `${env().APP_URL}/profile`) });
  } catch (err) {
    log.error(`passkey-${change} notice not sent`, { user_id: user.id, error: { message: err instanceof Error ? err.message : String(err) } });
  }
}
