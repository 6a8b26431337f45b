import { describe, expect, it } from 'vitest';
import helpEn from './help.en.json';
import helpEs from './help.es.json';
import helpPt from './help.pt.json';
import { FAQ_ITEMS, type HelpContent } from './help-content';
import en from './terms.en.json';
import es from './terms.es.json';
import pt from './terms.pt.json';
import type { TermsContent } from './terms-content';

const tokens = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}|<\/?(\w+)>/g)].map((m) => m[0].replace(/\s/g, '')).sort();
const nonEmpty = (text: string) => {
  expect(text.trim()).not.toBe('');
  return tokens(text);
};
const termsShape = (c: TermsContent) =>
  c.sections.map((s) => ({ id: s.id, title: nonEmpty(s.title), paragraphs: s.paragraphs.map(nonEmpty), items: s.items?.map(nonEmpty) }));
const helpShape = (c: HelpContent) => ({
  guide: [nonEmpty(c.guide.title), ...c.guide.steps.map(nonEmpty)],
  faq: [nonEmpty(c.faq.title), ...FAQ_ITEMS.map((k) => [nonEmpty(c.faq.items[k].q), nonEmpty(c.faq.items[k].a)])],
  keys: Object.keys(c.faq.items).sort(),
});

describe('page content (terms, help) in every language', () => {
  it('terms: the same sections, paragraphs, items and placeholders', () => {
    expect(termsShape(pt)).toEqual(termsShape(en));
    expect(termsShape(es)).toEqual(termsShape(en));
  });

  it('help: the same guide steps and the six FAQ items, with the same placeholders and links', () => {
    expect(helpShape(helpEn).keys).toEqual([...FAQ_ITEMS].sort());
    expect(helpShape(helpPt)).toEqual(helpShape(helpEn));
    expect(helpShape(helpEs)).toEqual(helpShape(helpEn));
  });

  it('terms cover what the product must disclose', () => {
    const text = JSON.stringify(en);
    for (const must of ['Stripe', 'Google', 'LGPD', 'GDPR', 'analytics', 'cookie', 'Automatic', 'delete', '{{days}}', '{{hours}}']) {
      expect(text).toContain(must);
    }
  });
});
