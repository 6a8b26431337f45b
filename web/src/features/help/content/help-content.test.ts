import { describe, expect, it } from 'vitest';
import { nonEmpty } from '../../../test/content-shape';
import helpEn from './help.en.json';
import helpEs from './help.es.json';
import helpPt from './help.pt.json';
import { FAQ_ITEMS, type HelpContent } from './help-content';

const helpShape = (c: HelpContent) => ({
  guide: [nonEmpty(c.guide.title), ...c.guide.steps.map(nonEmpty)],
  faq: [nonEmpty(c.faq.title), ...FAQ_ITEMS.map((k) => [nonEmpty(c.faq.items[k].q), nonEmpty(c.faq.items[k].a)])],
  keys: Object.keys(c.faq.items).sort(),
});

describe('help content in every language', () => {
  it('help: the same guide steps and the six FAQ items, with the same placeholders and links', () => {
    expect(helpShape(helpEn).keys).toEqual([...FAQ_ITEMS].sort());
    expect(helpShape(helpPt)).toEqual(helpShape(helpEn));
    expect(helpShape(helpEs)).toEqual(helpShape(helpEn));
  });
});
