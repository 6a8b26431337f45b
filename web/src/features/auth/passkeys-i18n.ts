import { useTranslation } from 'react-i18next';
import { ApiError, describeError } from '../../lib/api';
import { addNamespace } from '../../lib/i18n';
import { PasskeyPromptError } from '../../lib/passkey-prompt';
import en from './locales/passkeys.en.json';
import es from './locales/passkeys.es.json';
import pt from './locales/passkeys.pt.json';

/**
 * The copy of passkeys (the sign-in page's passkey parts, the profile's Passkeys section) is its own
 * i18next namespace, `passkeys`, registered when either loads: no page carries it until then. en is
 * the source of keys (typed in i18next.d.ts); the locales test checks pt and es.
 */
addNamespace('passkeys', { en, pt, es });

/** `t` for passkeys keys; follows UI language changes like `useTranslation()`. */
export function usePasskeysT() {
  return useTranslation('passkeys').t;
}

type ErrorKey = keyof typeof en.errors;
const isErrorKey = (code: string | undefined): code is ErrorKey => code !== undefined && Object.hasOwn(en.errors, code);

/** An error for the user: a prompt that gave no passkey, a passkey route's refusal in this copy, anything else as the app describes it. */
export function useDescribePasskeyError() {
  const t = usePasskeysT();
  return (error: unknown): string | undefined => {
    if (error instanceof PasskeyPromptError) return t(`errors.${error.reason}`);
    if (error instanceof ApiError && isErrorKey(error.code)) return t(`errors.${error.code}`);
    return describeError(error);
  };
}
