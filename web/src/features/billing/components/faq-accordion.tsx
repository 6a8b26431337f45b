import { useId, useState, type ReactNode } from 'react';
import { cn } from '../../../components/ui/cn';
import { ChevronIcon } from './icons';

export interface FaqItem {
  id: string;
  question: string;
  answer: ReactNode;
}

/** An accordion with at most one answer open (WAI-ARIA accordion pattern: buttons in headings). */
export function FaqAccordion({ items, headingLevel = 3 }: { items: FaqItem[]; headingLevel?: 2 | 3 | 4 }) {
  const [openId, setOpenId] = useState<string | null>(null);
  const baseId = useId();
  const Heading = `h${headingLevel}` as const;
  return (
    <div className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
      {items.map((item) => {
        const open = openId === item.id;
        const buttonId = `${baseId}-${item.id}-button`;
        const panelId = `${baseId}-${item.id}-panel`;
        return (
          <div key={item.id}>
            <Heading className="m-0">
              <button
                type="button"
                id={buttonId}
                aria-expanded={open}
                aria-controls={panelId}
                onClick={() => setOpenId(open ? null : item.id)}
                className="flex w-full items-center justify-between gap-4 px-5 py-4 text-left font-medium text-slate-900 hover:bg-slate-50 dark:text-white dark:hover:bg-slate-800"
              >
                {item.question}
                <ChevronIcon className={cn('shrink-0 transition-transform', open && 'rotate-180')} />
              </button>
            </Heading>
            <div id={panelId} role="region" aria-labelledby={buttonId} hidden={!open} className="px-5 pb-4 text-slate-700 dark:text-slate-300">
              {item.answer}
            </div>
          </div>
        );
      })}
    </div>
  );
}
