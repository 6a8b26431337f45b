import { useTranslation } from 'react-i18next';
import { addNamespace } from '../../../lib/i18n';
import en from './locales/en.json';

/**
 * The copy of on-device recognition is its own i18next namespace, `onDevice`, registered when the
 * panel first loads (lazily: never in the home route's first load where the browser lacks the API).
 * English comes with the panel; Portuguese and Spanish are their own small chunks, fetched only in
 * that UI language. en.json is the source of keys; locales.test.ts checks pt and es.
 */
addNamespace('onDevice', { en, pt: () => import('./locales/pt.json'), es: () => import('./locales/es.json') });

export function useOnDeviceT() {
  return useTranslation('onDevice').t;
}
