import { lazyContent } from '../../../lib/lazy-content';

/** The terms and privacy text (one chunk per language, loaded by the terms page only). */
export interface TermsContent {
  intro: string;
  sections: { id: string; title: string; paragraphs: string[]; items?: string[] }[];
}

/** The date of the current version (shown formatted in the UI language). */
export const TERMS_UPDATED = '2026-11-22';

export const termsContent = lazyContent<TermsContent>({
  en: () => import('./terms.en.json'),
  pt: () => import('./terms.pt.json'),
  es: () => import('./terms.es.json'),
});
