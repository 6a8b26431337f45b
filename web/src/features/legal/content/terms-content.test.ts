import { describe, expect, it } from 'vitest';
import { nonEmpty } from '../../../test/content-shape';
import en from './terms.en.json';
import es from './terms.es.json';
import pt from './terms.pt.json';
import type { TermsContent } from './terms-content';

const termsShape = (c: TermsContent) =>
  c.sections.map((s) => ({ id: s.id, title: nonEmpty(s.title), paragraphs: s.paragraphs.map(nonEmpty), items: s.items?.map(nonEmpty) }));

describe('terms content in every language', () => {
  it('terms: the same sections, paragraphs, items and placeholders', () => {
    expect(termsShape(pt)).toEqual(termsShape(en));
    expect(termsShape(es)).toEqual(termsShape(en));
  });

  it('terms cover what the product must disclose', () => {
    const text = JSON.stringify(en);
    for (const must of ['Stripe', 'Google', 'LGPD', 'GDPR', 'analytics', 'cookie', 'Automatic', 'delete', '{{days}}', '{{hours}}']) {
      expect(text).toContain(must);
    }
  });
});
