import { useTranslation } from 'react-i18next';
import { ApiError, describeError } from '../../lib/api';
import { addNamespace } from '../../lib/i18n';
import en from './locales/verify-email.en.json';
import es from './locales/verify-email.es.json';
import pt from './locales/verify-email.pt.json';

/**
 * The copy of email verification (the banner and the link's page) is its own i18next namespace,
 * `verifyEmail`, registered when either loads: both are lazy, so no page carries it until a
 * user needs it. en is the source of keys (typed in i18next.d.ts); the locales test checks pt and es.
 */
addNamespace('verifyEmail', { en, pt, es });

/** `t` for verifyEmail keys; follows UI language changes like `useTranslation()`. */
export function useVerifyEmailT() {
  return useTranslation('verifyEmail').t;
}

/**
 * An error for the user. The verification routes' refusals take copy this namespace already has
 * (a dead link, an address already confirmed) or the app's own (too many requests); anything else
 * is described as the app describes it.
 */
export function useDescribeVerifyError() {
  const t = useVerifyEmailT();
  const { t: tApp } = useTranslation();
  return (error: unknown): string | undefined => {
    if (!(error instanceof ApiError)) return describeError(error);
    if (error.code === 'verify_link_invalid') return t('page.failed');
    if (error.code === 'already_verified') return t('page.done');
    if (error.code === 'verify_rate_limited') return tApp('errors.codes.rate_limited');
    return describeError(error);
  };
}
