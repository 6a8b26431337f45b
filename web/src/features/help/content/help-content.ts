import { lazyContent } from '../../../lib/lazy-content';

export const FAQ_ITEMS = ['browsers', 'microphone', 'languages', 'plans', 'saving', 'privacy'] as const;
export type FaqItem = (typeof FAQ_ITEMS)[number];

/** The help page's guide and FAQ (one chunk per language, loaded by the help page only). */
export interface HelpContent {
  guide: { title: string; steps: string[] };
  faq: { title: string; items: Record<FaqItem, { q: string; a: string }> };
}

export const helpContent = lazyContent<HelpContent>({
  en: () => import('./help.en.json'),
  pt: () => import('./help.pt.json'),
  es: () => import('./help.es.json'),
});
