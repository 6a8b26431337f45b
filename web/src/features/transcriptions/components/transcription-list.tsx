import { Fragment, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { describeError } from '../../../lib/api';
import type { useTranscriptionList } from '../api/list-transcriptions';
import type { TranscriptionKind, TranscriptionSummaryOf } from '../kinds';

/** Where the empty list sends the user to start one. */
const START = { saved: 'header.transcribe', automatic: 'automatic.startNow' } as const;

interface TranscriptionListProps<K extends TranscriptionKind> {
  kind: K;
  query: ReturnType<typeof useTranscriptionList<K>>;
  /** Whether any filter is applied (the empty list then says nothing matches). */
  filtered: boolean;
  /** One `<li>` (a TranscriptionCard) opening the detail. */
  renderItem: (item: TranscriptionSummaryOf<K>, open: () => void) => ReactNode;
  renderDialog: (dialog: { id: string | null; summary: TranscriptionSummaryOf<K> | undefined; onClose: () => void }) => ReactNode;
}

/** A kind's list as loaded: count, loading, error and empty states, "Load more", and the detail dialog. */
export function TranscriptionList<K extends TranscriptionKind>({ kind, query, filtered, renderItem, renderDialog }: TranscriptionListProps<K>) {
  const { t } = useTranslation();
  /** The kind's locale section. */
  const copy: TranscriptionKind = kind;
  const [openId, setOpenId] = useState<string | null>(null);
  const items = (query.data?.pages ?? []).flatMap((page) => page.transcriptions as TranscriptionSummaryOf<K>[]);

  let body;
  if (query.isPending) {
    body = (
      <div role="status" className="flex items-center justify-center gap-2 py-16 text-fg-muted">
        <Spinner className="size-5" />
        {t(`${copy}.loading`)}
      </div>
    );
  } else if (query.isError && items.length === 0) {
    body = (
      <Alert tone="error">
        <p className="font-medium">{t(`${copy}.loadError`)}</p>
        {describeError(query.error) && <p>{describeError(query.error)}</p>}
        <Button variant="secondary" size="sm" className="mt-2" onClick={() => void query.refetch()}>
          {t(`${copy}.retry`)}
        </Button>
      </Alert>
    );
  } else if (items.length === 0) {
    body = (
      <div className="rounded-2xl border border-dashed border-input px-6 py-12 text-center">
        <p className="font-medium text-fg">{filtered ? t(`${copy}.noResults`) : t(`${copy}.empty`)}</p>
        {!filtered && (
          <>
            <p className="mt-1 text-sm text-fg-muted">{t(`${copy}.emptyHint`)}</p>
            <Link to="/" className={buttonClasses('primary', 'md', 'mt-4')}>
              {t(START[kind])}
            </Link>
          </>
        )}
      </div>
    );
  } else {
    body = (
      <>
        <ul aria-label={t(`${copy}.list`)} className="space-y-3">
          {items.map((item) => (
            <Fragment key={item._id}>{renderItem(item, () => setOpenId(item._id))}</Fragment>
          ))}
        </ul>
        {query.hasNextPage && (
          <div className="mt-6 flex justify-center">
            <Button variant="secondary" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
              {query.isFetchingNextPage ? t(`${copy}.loadingMore`) : t(`${copy}.loadMore`)}
            </Button>
          </div>
        )}
        {query.isFetchNextPageError && (
          <Alert tone="error" className="mt-4">
            {t(`${copy}.loadError`)}
          </Alert>
        )}
      </>
    );
  }

  return (
    <section aria-busy={query.isFetching || undefined} className="mt-6">
      <p role="status" className="mb-3 min-h-5 text-sm text-fg-muted">
        {query.isSuccess &&
          (query.hasNextPage ? t(`${copy}.countMore`, { count: items.length }) : t(`${copy}.count`, { count: items.length }))}
      </p>
      {body}
      {renderDialog({ id: openId, summary: items.find((item) => item._id === openId), onClose: () => setOpenId(null) })}
    </section>
  );
}

/** One transcription in a list: the whole card is the click target of the open button inside it. */
export function TranscriptionCard({ children }: { children: ReactNode }) {
  return (
    <li className="relative rounded-xl border border-border bg-surface p-4 shadow-sm transition-colors focus-within:ring-2 focus-within:ring-indigo-600 hover:border-primary-line">
      {children}
    </li>
  );
}

/** The card's open button: its box covers the card, so a click anywhere on it opens the detail. */
export const openButtonClasses = "text-left outline-none after:absolute after:inset-0 after:rounded-xl after:content-['']";
