import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CircleCheck } from 'lucide';
import { buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Icon } from '../../../components/ui/icon';
import { PLAN_VALUES } from '../../../lib/plan-values';

/**
 * For visitors: the visitor's limit, what a free account adds and a taste of Pro (tagged), in
 * the shared plan copy, and a register button.
 */
export function VisitorCta() {
  const { t } = useTranslation();
  const titleId = useId();
  const items = [
    { text: t('plans.free.noTimeLimit'), pro: false },
    { text: t('plans.free.automatic', PLAN_VALUES), pro: false },
    { text: t('plans.pro.languages', PLAN_VALUES), pro: true },
    { text: t('plans.pro.save'), pro: true },
  ];
  return (
    <section aria-labelledby={titleId} className="mt-8">
      <Card className="flex flex-col gap-5 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 id={titleId} className="text-lg font-semibold text-fg">
            {t('home.cta.title')}
          </h2>
          <p className="mt-1 text-sm text-fg-muted">{t('plans.visitor', PLAN_VALUES)}</p>
          <ul className="mt-3 space-y-1.5">
            {items.map(({ text, pro }) => (
              <li key={text} className="flex items-center gap-2 text-sm text-fg-soft">
                <Icon node={CircleCheck} size={18} className="shrink-0 text-success" />
                {text}
                {pro && (
                  <span className="rounded bg-warning-muted px-1 text-[0.65rem] font-bold text-warning-soft-fg">{t('transcribe.proTag')}</span>
                )}
              </li>
            ))}
          </ul>
        </div>
        <Link to="/register" className={buttonClasses('primary', 'lg', 'shrink-0')}>
          {t('home.cta.register')}
        </Link>
      </Card>
    </section>
  );
}
