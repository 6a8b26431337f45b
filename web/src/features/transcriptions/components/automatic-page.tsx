import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { textDirection } from '@app/shared/constants';
import { SignedInPage } from '../../../components/signed-in-page';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../components/ui/cn';
import { formatCountdown, languageName } from '../../../lib/format';
import { formatDateTime } from '../../../lib/format-date-time';
import { currentUiLanguage } from '../../../lib/i18n';
import { PLAN_VALUES } from '../../../lib/plan-values';
import { useTranscriptionDetail } from '../api/get-transcription';
import type { CompletionFilter, TranscriptionFilters } from '../api/keys';
import { useTranscriptionList } from '../api/list-transcriptions';
import type { TranscriptionSummaryOf } from '../kinds';
import { monthLabel, monthOf } from '../lib/format';
import { FilterField, fieldClasses } from './filter-field';
import { TranscriptionDialog } from './transcription-dialog';
import { openButtonClasses, TranscriptionCard, TranscriptionList } from './transcription-list';

type AutomaticSummary = TranscriptionSummaryOf<'automatic'>;

const NO_FILTERS: TranscriptionFilters = { search: '', month: '', status: 'all' };
const STATUSES: readonly CompletionFilter[] = ['all', 'finished', 'inProgress'];

/** /transcricoes-automaticas: the transcriptions autosave wrote while the user spoke. Login required. */
export default function AutomaticTranscriptionsPage() {
  const { t } = useTranslation();
  const title = <title>{t('app.pageTitle', { page: t('automatic.title') })}</title>;
  return (
    <SignedInPage title={title} loginRequired={{ title: t('automatic.loginRequiredTitle'), text: t('automatic.loginRequired'), button: t('automatic.loginButton') }}>
      {(user) => (
        <div className="mx-auto max-w-4xl px-4 py-8 sm:px-6 sm:py-10">
          {title}
          <AutomaticTranscriptions key={user.id} isPro={user.plan === 'pro'} />
        </div>
      )}
    </SignedInPage>
  );
}

function AutomaticTranscriptions({ isPro }: { isPro: boolean }) {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<TranscriptionFilters>(NO_FILTERS);
  const [search, setSearch] = useState('');
  const query = useTranscriptionList('automatic', filters);
  const items = query.data?.pages.flatMap((page) => page.transcriptions) ?? [];
  const keptThisMonth = query.data?.pages[0]?.keptThisMonth;
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

  return (
    <>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-3xl font-semibold tracking-tight text-fg">{t('automatic.title')}</h1>
          <p className="mt-2 text-fg-muted">{t('automatic.subtitle')}</p>
        </div>
        {!isPro && keptThisMonth !== undefined && (
          <p className="shrink-0 rounded-full bg-primary-soft px-3 py-1.5 text-sm font-medium text-primary-strong">
            {t('automatic.counter', { ...PLAN_VALUES, count: keptThisMonth })}
          </p>
        )}
      </div>
      {!isPro && keptThisMonth !== undefined && keptThisMonth >= PLAN_VALUES.perMonth && (
        <p className="mt-3 text-sm text-amber-800 dark:text-amber-200">{t('automatic.notKept')}</p>
      )}

      <div role="search" aria-label={t('automatic.filters')} className="mt-6 space-y-3">
        <form
          className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_13rem] sm:items-end"
          onSubmit={(event) => {
            event.preventDefault();
            setFilters((f) => ({ ...f, search: search.trim() }));
          }}
        >
          <FilterField label={t('automatic.search')}>
            {(id) => (
              <div className="flex gap-2">
                <input
                  id={id}
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
            )}
          </FilterField>
          <FilterField label={t('automatic.month')}>
            {(id) => (
              <select id={id} value={filters.month} onChange={(event) => setFilters((f) => ({ ...f, month: event.target.value }))} className={fieldClasses}>
                <option value="">{t('automatic.allMonths')}</option>
                {months.map((month) => (
                  <option key={month} value={month}>
                    {monthLabel(month, lang)}
                  </option>
                ))}
              </select>
            )}
          </FilterField>
        </form>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div role="group" aria-label={t('automatic.status')} className="inline-flex rounded-lg border border-input p-1">
            {STATUSES.map((status) => (
              <button
                key={status}
                type="button"
                aria-pressed={filters.status === status}
                onClick={() => setFilters((f) => ({ ...f, status }))}
                className={cn(
                  'h-9 rounded-md px-3 text-sm font-medium transition-colors',
                  filters.status === status
                    ? 'bg-primary text-fg-inverse'
                    : 'text-fg-subtle hover:bg-surface-muted',
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

      <TranscriptionList
        kind="automatic"
        query={query}
        filtered={filtered}
        renderItem={(item, open) => <AutomaticItem item={item} onOpen={open} />}
        renderDialog={(dialog) => <AutomaticDialog {...dialog} />}
      />
    </>
  );
}

/** Finished or in progress (isCompleted). */
function StatusBadge({ completed }: { completed: boolean }) {
  const { t } = useTranslation();
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-medium',
        completed
          ? 'bg-success-soft text-success-soft-fg'
          : 'bg-warning-soft text-warning-soft-fg',
      )}
    >
      <span aria-hidden="true" className={cn('size-2 rounded-full', completed ? 'bg-emerald-500' : 'bg-amber-500')} />
      {completed ? t('automatic.badgeFinished') : t('automatic.badgeInProgress')}
    </span>
  );
}

function AutomaticItem({ item, onOpen }: { item: AutomaticSummary; onOpen: () => void }) {
  const { t } = useTranslation();
  const lang = currentUiLanguage();
  const date = formatDateTime(item.createdAt, lang);
  const more = item.length > item.preview.length;
  return (
    <TranscriptionCard>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-base font-semibold text-fg">
          <button type="button" onClick={onOpen} aria-label={t('automatic.open', { date })} className={openButtonClasses}>
            <time dateTime={item.createdAt}>{date}</time>
          </button>
        </h2>
        <StatusBadge completed={item.isCompleted} />
      </div>
      <p className="mt-1 text-sm text-fg-muted">
        {languageName(item.language, lang)}
        <span aria-hidden="true"> · </span>
        <span className="sr-only">, {t('automatic.duration')} </span>
        <span className="tabular-nums">{formatCountdown(item.duration)}</span>
      </p>
      <p dir={textDirection(item.language)} lang={item.language} className="mt-2 line-clamp-3 break-words text-sm text-fg-subtle">
        {item.preview ? (
          <>
            {item.preview}
            {more && '…'}
          </>
        ) : (
          <span className="italic text-fg-muted">{t('automatic.noText')}</span>
        )}
      </p>
    </TranscriptionCard>
  );
}

/** An automatic transcription: named by its date, with its status. */
function AutomaticDialog({ id, summary, onClose }: { id: string | null; summary: AutomaticSummary | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const lang = currentUiLanguage();
  const detail = useTranscriptionDetail('automatic', id);
  const item = detail.data ?? summary;
  const date = item ? formatDateTime(item.createdAt, lang) : '';
  return (
    <TranscriptionDialog
      kind="automatic"
      id={id}
      detail={detail}
      onClose={onClose}
      title={item ? t('automatic.detail.title', { date }) : t('automatic.title')}
      // The title holds the date: printed, the page shows only it and the text.
      description={
        item && <span className="print:hidden">{`${languageName(item.language, lang)} · ${t('automatic.duration')} ${formatCountdown(item.duration)}`}</span>
      }
      confirmBody={t('automatic.confirmDelete.body', { date })}
      header={item && <StatusBadge completed={item.isCompleted} />}
      editable={detail.data?.isCompleted === true}
    />
  );
}
