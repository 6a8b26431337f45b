import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CircleCheck } from 'lucide';
import { buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Icon } from '../../../components/ui/icon';

/** For visitors: what an account adds (unlimited time, languages, saved transcriptions) and a register button. */
export function VisitorCta() {
  const { t } = useTranslation();
  const titleId = useId();
  const items = [t('home.cta.unlimited'), t('home.cta.languages'), t('home.cta.saved')];
  return (
    <section aria-labelledby={titleId} className="mt-8">
      <Card className="flex flex-col gap-5 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 id={titleId} className="text-lg font-semibold text-fg">
            {t('home.cta.title')}
          </h2>
          <p className="mt-1 text-sm text-fg-muted">{t('home.cta.body')}</p>
          <ul className="mt-3 space-y-1.5">
            {items.map((item) => (
              <li key={item} className="flex items-center gap-2 text-sm text-fg-soft">
                <Icon node={CircleCheck} size={18} className="shrink-0 text-success" />
                {item}
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
