import { useTranslation } from 'react-i18next';
import { addNamespace } from '../../lib/i18n';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';

/**
 * The copy of translated captions is its own i18next namespace, `captionTranslation`, registered
 * when translation code first loads (caption mode, the live viewer: never the home route's first
 * load). en.json is the source of keys; locales.test.ts checks pt and es.
 */
addNamespace('captionTranslation', { en, pt, es });

export function useTranslationT() {
  return useTranslation('captionTranslation').t;
}
