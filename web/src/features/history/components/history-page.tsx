import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { SignedInPage } from '../../../components/signed-in-page';
import type { HistoryFilters } from '../api/keys';
import { HistoryList } from './history-list';

const NO_FILTERS: HistoryFilters = { search: '', month: '' };

/** /transcricoes: the saved transcriptions of a Pro user. Others are told why not, with no request made. */
export default function HistoryPage() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<HistoryFilters>(NO_FILTERS);
  const title = <title>{t('app.pageTitle', { page: t('history.title') })}</title>;
  const loginRequired = { title: t('history.loginRequiredTitle'), text: t('history.loginRequired'), button: t('history.loginButton') };

  return (
    <SignedInPage title={title} loginRequired={loginRequired}>
      {(user) =>
        user.plan !== 'pro' ? (
          <div className="mx-auto max-w-xl px-4 py-16">
            {title}
            <Card className="text-center">
              <h1 className="text-xl font-semibold text-slate-900 dark:text-white">{t('history.restrictedTitle')}</h1>
              <p className="mt-2 text-slate-600 dark:text-slate-400">{t('history.restricted')}</p>
              <div className="mt-6 flex flex-col gap-2 sm:flex-row sm:justify-center">
                {/* The billing shell listens for this event and opens the upgrade modal. */}
                <Button size="lg" onClick={() => window.dispatchEvent(new CustomEvent('open-upgrade'))}>
                  {t('history.upgrade')}
                </Button>
                <Link to="/pricing" className={buttonClasses('secondary', 'lg')}>
                  {t('history.seePlans')}
                </Link>
              </div>
            </Card>
          </div>
        ) : (
          <div className="mx-auto max-w-4xl px-4 py-8 sm:px-6 sm:py-10">
            {title}
            <h1 className="text-3xl font-semibold tracking-tight text-slate-900 dark:text-white">{t('history.title')}</h1>
            <p className="mt-2 text-slate-600 dark:text-slate-400">{t('history.subtitle')}</p>
            <HistoryFiltersForm initial={filters} onApply={setFilters} />
            <HistoryList filters={filters} />
          </div>
        )
      }
    </SignedInPage>
  );
}

function HistoryFiltersForm({ initial, onApply }: { initial: HistoryFilters; onApply: (filters: HistoryFilters) => void }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState(initial.search);
  const [month, setMonth] = useState(initial.month);
  const validMonth = /^\d{4}-(0[1-9]|1[0-2])$/.test(month) ? month : '';
  return (
    <form
      role="search"
      aria-label={t('history.filters')}
      className="mt-6 grid gap-3 sm:grid-cols-[minmax(0,1fr)_12rem_auto] sm:items-end"
      onSubmit={(event) => {
        event.preventDefault();
        onApply({ search: search.trim(), month: validMonth });
      }}
    >
      <Field label={t('history.search')}>
        {(id) => (
          <input
            id={id}
            type="search"
            value={search}
            maxLength={100}
            placeholder={t('history.searchPlaceholder')}
            onChange={(event) => setSearch(event.target.value)}
            className={fieldClasses}
          />
        )}
      </Field>
      <Field label={t('history.month')}>
        {(id) => <input id={id} type="month" value={month} onChange={(event) => setMonth(event.target.value)} className={fieldClasses} />}
      </Field>
      <div className="flex gap-2">
        <Button type="submit" className="h-11 flex-1 sm:flex-none">
          {t('history.filter')}
        </Button>
        <Button
          variant="secondary"
          className="h-11 flex-1 sm:flex-none"
          onClick={() => {
            setSearch('');
            setMonth('');
            onApply({ search: '', month: '' });
          }}
        >
          {t('history.clear')}
        </Button>
      </div>
    </form>
  );
}

const fieldClasses =
  'block h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-base text-slate-900 shadow-sm placeholder:text-slate-500 ' +
  'focus:border-indigo-600 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:[color-scheme:dark]';

function Field({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
        {label}
      </label>
      {children(id)}
    </div>
  );
}
