import { useTranslation } from 'react-i18next';
import { addNamespace } from '../../../lib/i18n';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';

/**
 * The copy of on-device recognition is its own i18next namespace, `onDevice`, registered for every
 * UI language when the panel first loads (lazily: never in the home route's first load). en.json
 * is the source of keys; locales.test.ts checks pt and es.
 */
addNamespace('onDevice', { en, pt, es });

export function useOnDeviceT() {
  return useTranslation('onDevice').t;
}
