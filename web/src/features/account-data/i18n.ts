import { useTranslation } from 'react-i18next';
import { addNamespace } from '../../lib/i18n';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';

/**
 * The copy of "Your data" (download and delete) is its own i18next namespace, `accountData`,
 * registered when the profile's section loads. en.json is the source of keys (typed in
 * i18next.d.ts); locales.test.ts checks pt and es have the same keys.
 */
addNamespace('accountData', { en, pt, es });

/** `t` for accountData keys; follows UI language changes like `useTranslation()`. */
export function useAccountDataT() {
  return useTranslation('accountData').t;
}
