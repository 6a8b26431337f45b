import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { textDirection } from '@app/shared/constants';
import type { TranscriptionSummary } from '@app/shared/schemas/transcriptions';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { describeError } from '../../../lib/api';
import { exportFile, type ExportFormat } from '../../../lib/export';
import { currentUiLanguage } from '../../../lib/i18n';
import { useDeleteTranscription } from '../api/delete-transcription';
import { useTranscription } from '../api/get-transcription';
import { formatDateTime, formatHistoryDuration } from '../lib/format';

const FORMATS: readonly ExportFormat[] = ['txt', 'srt', 'vtt'];

/** One saved transcription: the full text, export and delete (with a confirmation). */
export function TranscriptionDialog({
  id,
  summary,
  onClose,
}: {
  id: string | null;
  summary: TranscriptionSummary | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const detail = useTranscription(id);
  const remove = useDeleteTranscription();
  const [confirming, setConfirming] = useState(false);
  const item = detail.data ?? summary;
  const title = item ? item.title || item.subject : '';

  const confirmDelete = () => {
    if (!id) return;
    remove.mutate(id, {
      onSuccess: () => {
        setConfirming(false);
        onClose();
        toast.success(t('history.deleted'));
      },
      onError: (error) => {
        setConfirming(false);
        toast.error(t('history.deleteError'), { description: describeError(error) });
      },
    });
  };

  return (
    <Dialog
      open={id !== null}
      onOpenChange={(open) => !open && onClose()}
      title={<span dir="auto">{title || t('history.title')}</span>}
      description={
        item ? `${formatDateTime(item.createdAt, currentUiLanguage())} · ${formatHistoryDuration(item.duration, t)}` : undefined
      }
      className="sm:max-w-2xl"
    >
      {detail.isPending ? (
        <div role="status" className="flex items-center justify-center gap-2 py-10 text-slate-600 dark:text-slate-400">
          <Spinner className="size-5" />
          {t('history.detail.loading')}
        </div>
      ) : detail.isError ? (
        <Alert tone="error">{describeError(detail.error) ?? t('history.detail.loadError')}</Alert>
      ) : (
        <>
          <div
            role="region"
            aria-label={t('history.detail.transcript')}
            tabIndex={0}
            dir={textDirection(detail.data.language)}
            lang={detail.data.language ?? undefined}
            className="max-h-[50vh] overflow-y-auto whitespace-pre-wrap break-words rounded-lg border border-slate-200 bg-slate-50 p-3 text-slate-900 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100"
          >
            {detail.data.fullTranscript || <span className="text-slate-600 dark:text-slate-400">{t('history.detail.empty')}</span>}
          </div>
          <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
            <div role="group" aria-label={t('history.detail.export')} className="flex flex-wrap gap-2">
              {FORMATS.map((format) => (
                <Button
                  key={format}
                  variant="secondary"
                  size="sm"
                  aria-label={t('history.detail.download', { format: format.toUpperCase() })}
                  onClick={() =>
                    exportFile(
                      format,
                      { text: detail.data.fullTranscript, segments: detail.data.segments, language: detail.data.language },
                      title,
                    )
                  }
                >
                  {format.toUpperCase()}
                </Button>
              ))}
            </div>
            <Button variant="danger" size="sm" onClick={() => setConfirming(true)}>
              {t('history.detail.delete')}
            </Button>
          </div>
        </>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('history.confirmDelete.title')}
        description={t('history.confirmDelete.body', { title })}
        confirmLabel={t('history.confirmDelete.confirm')}
        pendingLabel={t('history.confirmDelete.deleting')}
        cancelLabel={t('history.confirmDelete.cancel')}
        pending={remove.isPending}
        onConfirm={confirmDelete}
      />
    </Dialog>
  );
}
