import { useTranslation } from 'react-i18next';
import { addNamespace } from '../../lib/i18n';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';

/**
 * The live sharing copy is its own i18next namespace, `live`, registered for every UI language
 * when live code first loads (all of it loads lazily: the home route never downloads it).
 * en.json here is the source of keys (typed in i18next.d.ts); locales.test.ts checks pt and es
 * have the same keys.
 */
addNamespace('live', { en, pt, es });

/** `t` for live keys (`tl('share.start')`); follows UI language changes like `useTranslation()`. */
export function useLiveT() {
  return useTranslation('live').t;
}
