import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { textDirection } from '@app/shared/constants';
import type { TranscriptionSummary } from '@app/shared/schemas/transcriptions';
import { Alert } from '../../../components/ui/alert';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { describeError } from '../../../lib/api';
import { currentUiLanguage } from '../../../lib/i18n';
import type { HistoryFilters } from '../api/keys';
import { useTranscriptionList } from '../api/list-transcriptions';
import { formatDateTime, formatHistoryDuration } from '../lib/format';
import { TranscriptionDialog } from './transcription-dialog';

/** The list for the applied filters: count, loading, error and empty states, "Load more", and the detail dialog. */
export function HistoryList({ filters }: { filters: HistoryFilters }) {
  const { t } = useTranslation();
  const query = useTranscriptionList(filters, true);
  const [openId, setOpenId] = useState<string | null>(null);
  const items = query.data?.pages.flatMap((page) => page.transcriptions) ?? [];
  const filtered = Boolean(filters.search || filters.month);

  let body;
  if (query.isPending) {
    body = (
      <div role="status" className="flex items-center justify-center gap-2 py-16 text-slate-600 dark:text-slate-400">
        <Spinner className="size-5" />
        {t('history.loading')}
      </div>
    );
  } else if (query.isError && items.length === 0) {
    body = (
      <Alert tone="error" className="mt-2">
        <p className="font-medium">{t('history.loadError')}</p>
        {describeError(query.error) && <p>{describeError(query.error)}</p>}
        <Button variant="secondary" size="sm" className="mt-2" onClick={() => void query.refetch()}>
          {t('history.retry')}
        </Button>
      </Alert>
    );
  } else if (items.length === 0) {
    body = (
      <div className="rounded-2xl border border-dashed border-slate-300 px-6 py-12 text-center dark:border-slate-700">
        <p className="font-medium text-slate-900 dark:text-white">{filtered ? t('history.noResults') : t('history.empty')}</p>
        {!filtered && (
          <>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t('history.emptyHint')}</p>
            <Link to="/" className={buttonClasses('primary', 'md', 'mt-4')}>
              {t('header.transcription')}
            </Link>
          </>
        )}
      </div>
    );
  } else {
    body = (
      <>
        <ul aria-label={t('history.list')} className="space-y-3">
          {items.map((item) => (
            <HistoryItem key={item._id} item={item} onOpen={() => setOpenId(item._id)} />
          ))}
        </ul>
        {query.hasNextPage && (
          <div className="mt-6 flex justify-center">
            <Button variant="secondary" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
              {query.isFetchingNextPage ? t('history.loadingMore') : t('history.loadMore')}
            </Button>
          </div>
        )}
        {query.isFetchNextPageError && (
          <Alert tone="error" className="mt-4">
            {t('history.loadError')}
          </Alert>
        )}
      </>
    );
  }

  return (
    <section aria-busy={query.isFetching || undefined} className="mt-6">
      <p role="status" className="mb-3 min-h-5 text-sm text-slate-600 dark:text-slate-400">
        {query.isSuccess &&
          (query.hasNextPage ? t('history.countMore', { count: items.length }) : t('history.count', { count: items.length }))}
      </p>
      {body}
      <TranscriptionDialog
        id={openId}
        summary={items.find((item) => item._id === openId)}
        onClose={() => setOpenId(null)}
      />
    </section>
  );
}

function HistoryItem({ item, onOpen }: { item: TranscriptionSummary; onOpen: () => void }) {
  const { t } = useTranslation();
  const title = item.title || item.subject;
  const more = item.length > item.preview.length;
  return (
    <li className="relative rounded-xl border border-slate-200 bg-white p-4 shadow-sm transition-colors focus-within:ring-2 focus-within:ring-indigo-600 hover:border-indigo-300 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-indigo-700">
      <h2 className="text-base font-semibold text-slate-900 dark:text-white">
        {/* The whole card is the click target; the title names it for assistive technology. */}
        <button type="button" onClick={onOpen} dir="auto" className="text-left outline-none after:absolute after:inset-0 after:rounded-xl after:content-['']">
          {title}
        </button>
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        <time dateTime={item.createdAt}>{formatDateTime(item.createdAt, currentUiLanguage())}</time>
        <span aria-hidden="true"> · </span>
        <span className="sr-only">, </span>
        {formatHistoryDuration(item.duration, t)}
      </p>
      {item.subject && item.subject !== item.title && (
        <p dir="auto" className="mt-1 text-sm font-medium text-slate-700 dark:text-slate-300">
          {item.subject}
        </p>
      )}
      {item.preview && (
        <p dir={textDirection(item.language)} lang={item.language ?? undefined} className="mt-2 line-clamp-3 break-words text-sm text-slate-700 dark:text-slate-300">
          {item.preview}
          {more && '…'}
        </p>
      )}
    </li>
  );
}
