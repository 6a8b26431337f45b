import type { PasskeyCeremony } from '@app/shared/schemas/passkeys';

/**
 * The browser's passkey prompt (WebAuthn) through @simplewebauthn/browser, which loads only when a
 * prompt opens: no page carries it until the user uses passkeys.
 */

/** Whether this browser can use passkeys at all (WebAuthn); where it cannot, the passkey controls are hidden or explained. */
export const passkeysSupported = (): boolean =>
  typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function' && typeof navigator.credentials?.get === 'function';

/** Why a prompt gave no passkey: the user closed it (or it timed out), the passkey is already on the account, or anything else. */
export type PromptFailure = 'cancelled' | 'exists' | 'unsupported' | 'failed';

export class PasskeyPromptError extends Error {
  override readonly name = 'PasskeyPromptError';
  constructor(readonly reason: PromptFailure) {
    super(`passkey prompt: ${reason}`);
  }
}

function failure(err: unknown): PasskeyPromptError {
  const name = err instanceof Error ? err.name : '';
  const code = (err as { code?: string } | undefined)?.code;
  if (name === 'NotAllowedError' || name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED') return new PasskeyPromptError('cancelled');
  if (name === 'InvalidStateError' || code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return new PasskeyPromptError('exists');
  if (name === 'NotSupportedError' || /does not support WebAuthn/i.test(err instanceof Error ? err.message : '')) return new PasskeyPromptError('unsupported');
  return new PasskeyPromptError('failed');
}

/** Asks the browser to make a new passkey for the server's creation options; the answer to send back. */
export async function promptNewPasskey(options: PasskeyCeremony['options']) {
  if (!passkeysSupported()) throw new PasskeyPromptError('unsupported');
  const { startRegistration } = await import('@simplewebauthn/browser');
  try {
    return await startRegistration({ optionsJSON: options as unknown as Parameters<typeof startRegistration>[0]['optionsJSON'] });
  } catch (err) {
    throw failure(err);
  }
}

/** Asks the browser to sign the server's challenge with one of the site's passkeys; the answer to send back. */
export async function promptPasskey(options: PasskeyCeremony['options']) {
  if (!passkeysSupported()) throw new PasskeyPromptError('unsupported');
  const { startAuthentication } = await import('@simplewebauthn/browser');
  try {
    return await startAuthentication({ optionsJSON: options as unknown as Parameters<typeof startAuthentication>[0]['optionsJSON'] });
  } catch (err) {
    throw failure(err);
  }
}
