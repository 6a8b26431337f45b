import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  ACCURACY_TEXT,
  PRICES,
  RECOGNITION_LANGUAGES,
  REFUND_DAYS,
  VISITOR_LIMIT_SECONDS,
  type Currency,
} from '@app/shared/constants';
import { ChevronDownIcon } from '../../../components/ui/icons';
import { cn } from '../../../components/ui/cn';
import { languageName } from '../../../lib/format';
import { currentUiLanguage } from '../../../lib/i18n';
import { FAQ_ITEMS, type FaqItem, type HelpContent } from '../content/help-content';
import { fill } from '../content/lazy-content';

/** A monthly price in the UI language ("$6.00", "R$ 35,00"). */
export function formatMonthlyPrice(currency: Currency, uiLanguage: string): string {
  return new Intl.NumberFormat(uiLanguage, { style: 'currency', currency }).format(PRICES[currency].amountMinor / 100);
}

function answerValues(lng: string) {
  const names = RECOGNITION_LANGUAGES.map((tag) => languageName(tag, lng));
  return {
    count: RECOGNITION_LANGUAGES.length,
    list: new Intl.ListFormat(lng, { style: 'long', type: 'conjunction' }).format(names),
    accuracy: ACCURACY_TEXT,
    limit: VISITOR_LIMIT_SECONDS,
    usd: formatMonthlyPrice('USD', lng),
    brl: formatMonthlyPrice('BRL', lng),
    days: REFUND_DAYS,
  };
}

/** An answer's text with its `<termsLink>…</termsLink>` as a link to the terms page. */
function Answer({ text }: { text: string }) {
  const parts: ReactNode[] = text.split(/<termsLink>(.*?)<\/termsLink>/).map((part, i) =>
    i % 2 === 1 ? (
      <Link key={i} to="/terms" className="rounded font-medium text-indigo-700 underline underline-offset-4 dark:text-indigo-300">
        {part}
      </Link>
    ) : (
      part
    ),
  );
  return <p>{parts}</p>;
}

/** The six questions, one open at a time (a disclosure per question: button + region). */
export function Faq({ faq }: { faq: HelpContent['faq'] }) {
  useTranslation(); // re-render when the UI language changes
  const [open, setOpen] = useState<FaqItem | null>(null);
  const values = answerValues(currentUiLanguage());
  const baseId = useId();
  return (
    <ul className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
      {FAQ_ITEMS.map((item) => {
        const expanded = open === item;
        const buttonId = `${baseId}-${item}-q`;
        const panelId = `${baseId}-${item}-a`;
        return (
          <li key={item}>
            <h3>
              <button
                type="button"
                id={buttonId}
                aria-expanded={expanded}
                aria-controls={panelId}
                onClick={() => setOpen(expanded ? null : item)}
                className="flex w-full items-center justify-between gap-4 rounded-2xl px-5 py-4 text-left font-medium text-slate-900 hover:bg-slate-50 dark:text-white dark:hover:bg-slate-800/60"
              >
                {faq.items[item].q}
                <ChevronDownIcon className={cn('shrink-0 text-slate-500 transition-transform dark:text-slate-400', expanded && 'rotate-180')} />
              </button>
            </h3>
            <div id={panelId} role="region" aria-labelledby={buttonId} hidden={!expanded} className="px-5 pb-5 text-slate-700 dark:text-slate-300">
              <Answer text={fill(faq.items[item].a, values)} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}
