import * as z from 'zod';
import { PASSKEY_NAME_MAX } from '../constants.ts';
import { user } from './auth.ts';

/** base64url text (WebAuthn's JSON encoding of bytes), at most `max` characters. */
const b64url = (max: number) => z.string().max(max).regex(/^[A-Za-z0-9_-]*$/, 'Must be base64url');

/**
 * A ceremony's options as WebAuthn's JSON form (PublicKeyCredentialCreationOptionsJSON or
 * PublicKeyCredentialRequestOptionsJSON), passed whole to the browser's passkey prompt.
 */
const ceremonyOptions = z.looseObject({ challenge: z.string() });

/** A ceremony under way: its options, and the flow that binds its single-use challenge (sent back with the answer). */
export const passkeyCeremony = z.object({ flow: z.string(), options: ceremonyOptions });
export type PasskeyCeremony = z.infer<typeof passkeyCeremony>;

/** A ceremony's flow id, as passkeyCeremony gave it. */
export const ceremonyFlow = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'This passkey prompt has expired. Try again.');
const flow = ceremonyFlow;

/** What the browser's passkey prompt answered (RegistrationResponseJSON, AuthenticationResponseJSON). */
const credentialBase = {
  id: b64url(1400).min(1),
  rawId: b64url(1400).min(1),
  type: z.literal('public-key'),
  /** Extension outputs: none is read, so none is kept. */
  clientExtensionResults: z.custom<object>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), 'Must be an object').default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
};
export const registrationCredential = z.object({
  ...credentialBase,
  response: z.object({
    clientDataJSON: b64url(8192).min(1),
    attestationObject: b64url(32_768).min(1),
    authenticatorData: b64url(16_384).optional(),
    transports: z.array(z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'])).max(7).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: b64url(4096).optional(),
  }),
});
export const authenticationCredential = z.object({
  ...credentialBase,
  response: z.object({
    clientDataJSON: b64url(8192).min(1),
    authenticatorData: b64url(16_384).min(1),
    signature: b64url(4096).min(1),
    userHandle: b64url(1024).optional(),
  }),
});

/** A recent sign-in, or else the current password (`reauth_required` without either). */
const reauth = { currentPassword: z.string().min(1).max(1024).optional() };
/** What a change that needs a recent sign-in takes: the current password, only when the session's sign-in is older. */
export const reauthRequest = z.object(reauth);

export const passkeyName = z.string().trim().min(1, 'Name is required').max(PASSKEY_NAME_MAX, `Name must be at most ${PASSKEY_NAME_MAX} characters`);


/** A passkey as its owner sees it. `id` names it in the API (not the credential id). */
export const passkey = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** Whether the passkey is synced (backed up) by its provider, so it survives a lost device. */
  backedUp: z.boolean(),
});
export type Passkey = z.infer<typeof passkey>;

/** The recovery codes, in clear: only in the answer that makes them, never again. */
export const recoveryCodes = z.array(z.string());

export const addPasskeyResponse = z.object({ passkey, recoveryCodes: recoveryCodes.nullable() });
export const recoveryCodesResponse = z.object({ recoveryCodes });

export const passkeyList = z.object({
  passkeys: z.array(passkey),
  /** Unused recovery codes. */
  recoveryCodesLeft: z.number().int(),
  /** Whether sign-in with the password also needs a passkey (or a recovery code). */
  required: z.boolean(),
});
export type PasskeyList = z.infer<typeof passkeyList>;
export const passkeyRequiredResponse = z.object({ required: z.boolean() });

/** A passkey's id as the API names it (domain: the SHA-256 of its credential id, base64url); any other text names none. */
const passkeyId = z.string().max(100);

/** A passkey, named in the path (removePasskey). */
export const passkeyParams = z.object({ id: passkeyId });

/** The passkey a registration ceremony made (addPasskey): the ceremony's flow, a name for it, the browser's answer. */
export const addPasskeyRequest = z.object({ flow, name: passkeyName, credential: registrationCredential });

/** The second factor's switch (setPasskeyRequirement). */
export const passkeyRequirementRequest = z.object({ required: z.boolean(), ...reauth });

/** A sign-in ceremony's answer (passkeySignIn): passwordless, or a password sign-in's second step. */
export const passkeySignInRequest = z.object({ flow, credential: authenticationCredential });

/** A password sign-in's second step ended with a recovery code instead (recoveryCodeSignIn). */
export const recoveryCodeSignInRequest = z.object({ flow, code: z.string().trim().min(1, 'Enter a recovery code').max(40, 'This is not a recovery code') });

/** A password sign-in of an account that requires a passkey: no session yet, the second step's ceremony. */
export const secondFactorResponse = z.object({ secondFactor: passkeyCeremony });
/** A password sign-in's answer: the user (the session in its cookie), or the second step to take. */
export const loginResponse = z.union([z.object({ user }), secondFactorResponse]);
export type LoginResponse = z.infer<typeof loginResponse>;
