import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FREE_MONTHLY_COUNTER, textDirection } from '@app/shared/constants';
import type { AutomaticTranscriptionSummary } from '@app/shared/schemas/transcriptions';
import { Alert } from '../../../components/ui/alert';
import { Button, buttonClasses } from '../../../components/ui/button';
import { cn } from '../../../components/ui/cn';
import { Spinner } from '../../../components/ui/spinner';
import { describeError } from '../../../lib/api';
import { formatCountdown, languageName } from '../../../lib/format';
import { currentUiLanguage } from '../../../lib/i18n';
import type { AutomaticFilters, CompletionFilter } from '../api/keys';
import { useAutomaticList } from '../api/list-automatic';
import { formatDateTime, monthLabel, monthOf } from '../lib/format';
import { AutomaticDialog } from './automatic-dialog';
import { StatusBadge } from './status-badge';

const NO_FILTERS: AutomaticFilters = { search: '', month: '', status: 'all' };
const STATUSES: readonly CompletionFilter[] = ['all', 'finished', 'inProgress'];

const fieldClasses =
  'block h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-base text-slate-900 shadow-sm placeholder:text-slate-500 ' +
  'focus:border-indigo-600 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100';

export function AutomaticTranscriptions({ isPro }: { isPro: boolean }) {
  const { t } = useTranslation();
  const ids = { search: useId(), month: useId() };
  const [filters, setFilters] = useState<AutomaticFilters>(NO_FILTERS);
  const [search, setSearch] = useState('');
  const [openId, setOpenId] = useState<string | null>(null);
  const query = useAutomaticList(filters);
  const items = query.data?.pages.flatMap((page) => page.transcriptions) ?? [];
  const startedThisMonth = query.data?.pages[0]?.startedThisMonth;
  const filtered = Boolean(filters.search || filters.month || filters.status !== 'all');
  const lang = currentUiLanguage();

  // The month dropdown is built from the items loaded so far; months seen stay listed.
  const [months, setMonths] = useState<string[]>([]);
  const loadedMonths = items.map((item) => monthOf(item.createdAt)).filter((m): m is string => Boolean(m));
  const monthsKey = [...new Set(loadedMonths)].join(',');
  useEffect(() => {
    if (!monthsKey) return;
    setMonths((seen) => {
      const next = [...new Set([...seen, ...monthsKey.split(',')])].sort().reverse();
      return next.length === seen.length ? seen : next;
    });
  }, [monthsKey]);

  let body;
  if (query.isPending) {
    body = (
      <div role="status" className="flex items-center justify-center gap-2 py-16 text-slate-600 dark:text-slate-400">
        <Spinner className="size-5" />
        {t('automatic.loading')}
      </div>
    );
  } else if (query.isError && items.length === 0) {
    body = (
      <Alert tone="error">
        <p className="font-medium">{t('automatic.loadError')}</p>
        {describeError(query.error) && <p>{describeError(query.error)}</p>}
        <Button variant="secondary" size="sm" className="mt-2" onClick={() => void query.refetch()}>
          {t('automatic.retry')}
        </Button>
      </Alert>
    );
  } else if (items.length === 0) {
    body = (
      <div className="rounded-2xl border border-dashed border-slate-300 px-6 py-12 text-center dark:border-slate-700">
        <p className="font-medium text-slate-900 dark:text-white">{filtered ? t('automatic.noResults') : t('automatic.empty')}</p>
        {!filtered && (
          <>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t('automatic.emptyHint')}</p>
            <Link to="/" className={buttonClasses('primary', 'md', 'mt-4')}>
              {t('automatic.startNow')}
            </Link>
          </>
        )}
      </div>
    );
  } else {
    body = (
      <>
        <ul aria-label={t('automatic.list')} className="space-y-3">
          {items.map((item) => (
            <AutomaticItem key={item._id} item={item} onOpen={() => setOpenId(item._id)} />
          ))}
        </ul>
        {query.hasNextPage && (
          <div className="mt-6 flex justify-center">
            <Button variant="secondary" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
              {query.isFetchingNextPage ? t('automatic.loadingMore') : t('automatic.loadMore')}
            </Button>
          </div>
        )}
        {query.isFetchNextPageError && (
          <Alert tone="error" className="mt-4">
            {t('automatic.loadError')}
          </Alert>
        )}
      </>
    );
  }

  return (
    <>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-3xl font-semibold tracking-tight text-slate-900 dark:text-white">{t('automatic.title')}</h1>
          <p className="mt-2 text-slate-600 dark:text-slate-400">{t('automatic.subtitle')}</p>
        </div>
        {!isPro && startedThisMonth !== undefined && (
          <p className="shrink-0 rounded-full bg-indigo-50 px-3 py-1.5 text-sm font-medium text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200">
            {t('automatic.counter', { count: startedThisMonth, max: FREE_MONTHLY_COUNTER })}
          </p>
        )}
      </div>

      <div role="search" aria-label={t('automatic.filters')} className="mt-6 space-y-3">
        <form
          className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_13rem] sm:items-end"
          onSubmit={(event) => {
            event.preventDefault();
            setFilters((f) => ({ ...f, search: search.trim() }));
          }}
        >
          <div className="space-y-1.5">
            <label htmlFor={ids.search} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
              {t('automatic.search')}
            </label>
            <div className="flex gap-2">
              <input
                id={ids.search}
                type="search"
                value={search}
                maxLength={100}
                placeholder={t('automatic.searchPlaceholder')}
                onChange={(event) => setSearch(event.target.value)}
                className={fieldClasses}
              />
              <Button type="submit" className="h-11 shrink-0">
                {t('automatic.searchButton')}
              </Button>
            </div>
          </div>
          <div className="space-y-1.5">
            <label htmlFor={ids.month} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
              {t('automatic.month')}
            </label>
            <select
              id={ids.month}
              value={filters.month}
              onChange={(event) => setFilters((f) => ({ ...f, month: event.target.value }))}
              className={fieldClasses}
            >
              <option value="">{t('automatic.allMonths')}</option>
              {months.map((month) => (
                <option key={month} value={month}>
                  {monthLabel(month, lang)}
                </option>
              ))}
            </select>
          </div>
        </form>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div role="group" aria-label={t('automatic.status')} className="inline-flex rounded-lg border border-slate-300 p-1 dark:border-slate-600">
            {STATUSES.map((status) => (
              <button
                key={status}
                type="button"
                aria-pressed={filters.status === status}
                onClick={() => setFilters((f) => ({ ...f, status }))}
                className={cn(
                  'h-9 rounded-md px-3 text-sm font-medium transition-colors',
                  filters.status === status
                    ? 'bg-indigo-600 text-white dark:bg-indigo-400 dark:text-slate-950'
                    : 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800',
                )}
              >
                {t(`automatic.${status}`)}
              </button>
            ))}
          </div>
          {filtered && (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                setSearch('');
                setFilters(NO_FILTERS);
              }}
            >
              {t('automatic.clear')}
            </Button>
          )}
        </div>
      </div>

      <section aria-busy={query.isFetching || undefined} className="mt-6">
        <p role="status" className="mb-3 min-h-5 text-sm text-slate-600 dark:text-slate-400">
          {query.isSuccess &&
            (query.hasNextPage ? t('automatic.countMore', { count: items.length }) : t('automatic.count', { count: items.length }))}
        </p>
        {body}
      </section>
      <AutomaticDialog id={openId} summary={items.find((item) => item._id === openId)} onClose={() => setOpenId(null)} />
    </>
  );
}

function AutomaticItem({ item, onOpen }: { item: AutomaticTranscriptionSummary; onOpen: () => void }) {
  const { t } = useTranslation();
  const lang = currentUiLanguage();
  const date = formatDateTime(item.createdAt, lang);
  const more = item.length > item.preview.length;
  return (
    <li className="relative rounded-xl border border-slate-200 bg-white p-4 shadow-sm transition-colors focus-within:ring-2 focus-within:ring-indigo-600 hover:border-indigo-300 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-indigo-700">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-base font-semibold text-slate-900 dark:text-white">
          <button
            type="button"
            onClick={onOpen}
            aria-label={t('automatic.open', { date })}
            className="text-left outline-none after:absolute after:inset-0 after:rounded-xl after:content-['']"
          >
            <time dateTime={item.createdAt}>{date}</time>
          </button>
        </h2>
        <StatusBadge completed={item.isCompleted} />
      </div>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        {languageName(item.language, lang)}
        <span aria-hidden="true"> · </span>
        <span className="sr-only">, {t('automatic.duration')} </span>
        <span className="tabular-nums">{formatCountdown(item.duration)}</span>
      </p>
      <p dir={textDirection(item.language)} lang={item.language} className="mt-2 line-clamp-3 break-words text-sm text-slate-700 dark:text-slate-300">
        {item.preview ? (
          <>
            {item.preview}
            {more && '…'}
          </>
        ) : (
          <span className="italic text-slate-600 dark:text-slate-400">{t('automatic.noText')}</span>
        )}
      </p>
    </li>
  );
}
