import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { textDirection } from '@app/shared/constants';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { SignedInPage } from '../../../components/signed-in-page';
import { EXPORT_FORMAT_LABELS, EXPORT_FORMATS, type ExportFormat } from '../../../lib/export-formats';
import { exportFile } from '../../../lib/transcript-export';
import { currentUiLanguage } from '../../../lib/i18n';
import { openUpgrade } from '../../../lib/open-upgrade';
import { toast } from '../../../lib/toast';
import { useTranscriptionDetail } from '../api/get-transcription';
import type { TranscriptionFilters } from '../api/keys';
import { useTranscriptionList } from '../api/list-transcriptions';
import type { TranscriptionSummaryOf } from '../kinds';
import { formatSavedDuration } from '../lib/format';
import { formatDateTime } from '../../../lib/format-date-time';
import { FilterField, MonthField, fieldClasses } from './filter-field';
import { TranscriptionDialog } from './transcription-dialog';
import { openButtonClasses, TranscriptionCard, TranscriptionList } from './transcription-list';

type SavedSummary = TranscriptionSummaryOf<'saved'>;

const NO_FILTERS: TranscriptionFilters = { search: '', month: '' };

/** /transcricoes: the saved transcriptions of a Pro user. Others are told why not, with no request made. */
export default function SavedTranscriptionsPage() {
  const { t } = useTranslation();
  const title = <title>{t('app.pageTitle', { page: t('saved.title') })}</title>;
  const loginRequired = { title: t('saved.loginRequiredTitle'), text: t('saved.loginRequired'), button: t('saved.loginButton') };

  return (
    <SignedInPage title={title} loginRequired={loginRequired}>
      {(user) =>
        user.plan !== 'pro' ? (
          <div className="mx-auto max-w-xl px-4 py-16">
            {title}
            <Card className="text-center">
              <h1 className="text-xl font-semibold text-fg">{t('saved.restrictedTitle')}</h1>
              <p className="mt-2 text-fg-muted">{t('saved.restricted')}</p>
              <div className="mt-6 flex flex-col gap-2 sm:flex-row sm:justify-center">
                {/* The billing shell listens for this event and opens the upgrade modal. */}
                <Button size="lg" onClick={openUpgrade}>
                  {t('saved.upgrade')}
                </Button>
                <Link to="/pricing" className={buttonClasses('secondary', 'lg')}>
                  {t('saved.seePlans')}
                </Link>
              </div>
            </Card>
          </div>
        ) : (
          <div className="mx-auto max-w-4xl px-4 py-8 sm:px-6 sm:py-10">
            {title}
            <h1 className="text-3xl font-semibold tracking-tight text-fg">{t('saved.title')}</h1>
            <p className="mt-2 text-fg-muted">{t('saved.subtitle')}</p>
            <SavedTranscriptions />
          </div>
        )
      }
    </SignedInPage>
  );
}

/** Only rendered for a Pro user, so no one else ever asks for the list. */
function SavedTranscriptions() {
  const [filters, setFilters] = useState<TranscriptionFilters>(NO_FILTERS);
  const query = useTranscriptionList('saved', filters);
  return (
    <>
      <SavedFiltersForm onApply={setFilters} />
      <TranscriptionList
        kind="saved"
        query={query}
        filtered={Boolean(filters.search || filters.month)}
        renderItem={(item, open) => <SavedItem item={item} onOpen={open} />}
        renderDialog={(dialog) => <SavedDialog {...dialog} />}
      />
    </>
  );
}

function SavedFiltersForm({ onApply }: { onApply: (filters: TranscriptionFilters) => void }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [month, setMonth] = useState('');
  const validMonth = /^\d{4}-(0[1-9]|1[0-2])$/.test(month) ? month : '';
  return (
    <form
      role="search"
      aria-label={t('saved.filters')}
      className="mt-6 grid gap-3 sm:grid-cols-[minmax(0,1fr)_12rem_auto] sm:items-end"
      onSubmit={(event) => {
        event.preventDefault();
        onApply({ search: search.trim(), month: validMonth });
      }}
    >
      <FilterField label={t('saved.search')}>
        {(id) => (
          <input
            id={id}
            type="search"
            value={search}
            maxLength={100}
            placeholder={t('saved.searchPlaceholder')}
            onChange={(event) => setSearch(event.target.value)}
            className={fieldClasses}
          />
        )}
      </FilterField>
      <FilterField label={t('saved.month')}>
        {(id) => <MonthField id={id} value={month} onChange={setMonth} placeholder={t('saved.anyMonth')} />}
      </FilterField>
      <div className="flex gap-2">
        <Button type="submit" className="h-11 flex-1 sm:flex-none">
          {t('saved.filter')}
        </Button>
        <Button
          variant="secondary"
          className="h-11 flex-1 sm:flex-none"
          onClick={() => {
            setSearch('');
            setMonth('');
            onApply(NO_FILTERS);
          }}
        >
          {t('saved.clear')}
        </Button>
      </div>
    </form>
  );
}

function SavedItem({ item, onOpen }: { item: SavedSummary; onOpen: () => void }) {
  const { t } = useTranslation();
  const more = item.length > item.preview.length;
  return (
    <TranscriptionCard>
      <h2 className="text-base font-semibold text-fg">
        {/* The title names the card for assistive technology. */}
        <button type="button" onClick={onOpen} dir="auto" className={openButtonClasses}>
          {item.title || item.subject}
        </button>
      </h2>
      <p className="mt-1 text-sm text-fg-muted">
        <time dateTime={item.createdAt}>{formatDateTime(item.createdAt, currentUiLanguage())}</time>
        <span aria-hidden="true"> · </span>
        <span className="sr-only">, </span>
        {formatSavedDuration(item.duration, t)}
      </p>
      {item.subject && item.subject !== item.title && (
        <p dir="auto" className="mt-1 text-sm font-medium text-fg-subtle">
          {item.subject}
        </p>
      )}
      {item.preview && (
        <p dir={textDirection(item.language)} lang={item.language ?? undefined} className="mt-2 line-clamp-3 break-words text-sm text-fg-subtle">
          {item.preview}
          {more && '…'}
        </p>
      )}
    </TranscriptionCard>
  );
}

/** A saved transcription: its title, its text exported as TXT, SRT, VTT or Word, and printed. */
function SavedDialog({ id, summary, onClose }: { id: string | null; summary: SavedSummary | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const detail = useTranscriptionDetail('saved', id);
  const data = detail.data;
  const item = data ?? summary;
  const title = item ? item.title || item.subject : '';
  const download = (format: ExportFormat) => {
    if (!data) return;
    const doc = {
      text: data.fullTranscript,
      segments: data.segments,
      language: data.language,
      title: title || t('transcribe.export.untitled'),
      createdAt: data.createdAt,
      uiLanguage: currentUiLanguage(),
    };
    exportFile(format, doc, title).catch(() => {
      // The Word builder could not load (offline after a new deploy).
      toast.error(t('errors.codes.network'), { id: 'saved-export' });
    });
  };
  return (
    <TranscriptionDialog
      kind="saved"
      id={id}
      detail={detail}
      onClose={onClose}
      title={<span dir="auto">{title || t('saved.title')}</span>}
      description={
        item && (
          <>
            <time dateTime={item.createdAt}>{formatDateTime(item.createdAt, currentUiLanguage())}</time>
            <span className="print:hidden"> · {formatSavedDuration(item.duration, t)}</span>
          </>
        )
      }
      confirmBody={t('saved.confirmDelete.body', { title })}
      editable
      editableTitle={item?.title}
      actions={
        data && (
          <div className="flex flex-wrap gap-2">
            <div role="group" aria-label={t('saved.detail.export')} className="flex flex-wrap gap-2">
              {EXPORT_FORMATS.map((format) => (
                <Button
                  key={format}
                  variant="secondary"
                  size="sm"
                  aria-label={t('saved.detail.download', { format: EXPORT_FORMAT_LABELS[format] })}
                  onClick={() => download(format)}
                >
                  {EXPORT_FORMAT_LABELS[format]}
                </Button>
              ))}
            </div>
            {/* The print stylesheet leaves only the title, the date and the text (the dialog's `data-print-document`). */}
            <Button variant="secondary" size="sm" onClick={() => window.print()}>
              {t('saved.detail.print')}
            </Button>
          </div>
        )
      }
    />
  );
}
