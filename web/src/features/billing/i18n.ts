import { useTranslation } from 'react-i18next';
import { addNamespace } from '../../lib/i18n';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';

/**
 * The billing copy is its own i18next namespace, `billing`, registered here for every UI
 * language when billing code first loads. All billing UI is lazily loaded, so a visitor's
 * home page never downloads it (the app's `translation` namespace is in the entry chunk).
 * en.json here is the source of keys (typed in i18next.d.ts); locales.test.ts checks pt
 * and es have the same keys.
 */
addNamespace('billing', { en, pt, es });

/** `t` for billing keys (`tb('upgrade')`); follows UI language changes like `useTranslation()`. */
export function useBillingT() {
  return useTranslation('billing').t;
}
