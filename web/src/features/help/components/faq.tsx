import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ACCURACY_TEXT, FEATURED_RECOGNITION_LANGUAGES, PRICES, REFUND_DAYS, type Currency } from '@app/shared/constants';
import { FaqAccordion } from '../../../components/ui/faq-accordion';
import { languageName } from '../../../lib/format';
import { currentUiLanguage } from '../../../lib/i18n';
import { PLAN_VALUES } from '../../../lib/plan-values';
import { FAQ_ITEMS, type HelpContent } from '../content/help-content';
import { fill } from '../../../lib/lazy-content';

/** A monthly price in the UI language ("$6.00", "R$ 35,00"). */
export function formatMonthlyPrice(currency: Currency, uiLanguage: string): string {
  return new Intl.NumberFormat(uiLanguage, { style: 'currency', currency }).format(PRICES[currency].amountMinor / 100);
}

function answerValues(lng: string) {
  // The featured languages, as examples: the whole list is in the language search.
  const names = FEATURED_RECOGNITION_LANGUAGES.map((tag) => languageName(tag, lng));
  return {
    ...PLAN_VALUES,
    list: new Intl.ListFormat(lng, { style: 'long', type: 'conjunction' }).format(names),
    accuracy: ACCURACY_TEXT,
    usd: formatMonthlyPrice('USD', lng),
    brl: formatMonthlyPrice('BRL', lng),
    days: REFUND_DAYS,
  };
}

/** An answer's text with its `<termsLink>…</termsLink>` as a link to the terms page. */
function Answer({ text }: { text: string }) {
  const parts: ReactNode[] = text.split(/<termsLink>(.*?)<\/termsLink>/).map((part, i) =>
    i % 2 === 1 ? (
      <Link key={i} to="/terms" className="rounded font-medium text-primary-strong underline underline-offset-4">
        {part}
      </Link>
    ) : (
      part
    ),
  );
  return <p>{parts}</p>;
}

/** The six questions, one answer open at a time. */
export function Faq({ faq }: { faq: HelpContent['faq'] }) {
  useTranslation(); // re-render when the UI language changes
  const values = answerValues(currentUiLanguage());
  return (
    <FaqAccordion
      items={FAQ_ITEMS.map((item) => ({
        id: item,
        question: faq.items[item].q,
        answer: <Answer text={fill(faq.items[item].a, values)} />,
      }))}
    />
  );
}
