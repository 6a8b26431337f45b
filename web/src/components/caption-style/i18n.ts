import { useTranslation } from 'react-i18next';
import { addNamespace } from '../../lib/i18n';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';

/**
 * The caption style's copy is its own i18next namespace, `captionStyle`, registered for every UI
 * language when caption code first loads (caption mode, the live viewer page, the profile: never
 * the home route's first load). en.json is the source of keys; locales.test.ts checks pt and es.
 */
addNamespace('captionStyle', { en, pt, es });

/** `t` for caption style keys; follows UI language changes like `useTranslation()`. */
export function useCaptionStyleT() {
  return useTranslation('captionStyle').t;
}
