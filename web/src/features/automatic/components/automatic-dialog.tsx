import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { textDirection } from '@app/shared/constants';
import type { AutomaticTranscriptionSummary } from '@app/shared/schemas/transcriptions';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { describeError } from '../../../lib/api';
import { formatCountdown, languageName } from '../../../lib/format';
import { currentUiLanguage } from '../../../lib/i18n';
import { useDeleteAutomatic } from '../api/delete-automatic';
import { useAutomaticTranscription } from '../api/get-automatic';
import { formatDateTime } from '../lib/format';
import { StatusBadge } from './status-badge';

/** One automatic transcription: the full text and delete (with a confirmation). */
export function AutomaticDialog({ id, summary, onClose }: { id: string | null; summary: AutomaticTranscriptionSummary | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const lang = currentUiLanguage();
  const detail = useAutomaticTranscription(id);
  const remove = useDeleteAutomatic();
  const [confirming, setConfirming] = useState(false);
  const item = detail.data ?? summary;
  const date = item ? formatDateTime(item.createdAt, lang) : '';

  const confirmDelete = () => {
    if (!id) return;
    remove.mutate(id, {
      onSuccess: () => {
        setConfirming(false);
        onClose();
        toast.success(t('automatic.deleted'));
      },
      onError: (error) => {
        setConfirming(false);
        toast.error(t('automatic.deleteError'), { description: describeError(error) });
      },
    });
  };

  return (
    <Dialog
      open={id !== null}
      onOpenChange={(open) => !open && onClose()}
      title={item ? t('automatic.detail.title', { date }) : t('automatic.title')}
      description={item ? `${languageName(item.language, lang)} · ${t('automatic.duration')} ${formatCountdown(item.duration)}` : undefined}
      className="sm:max-w-2xl"
    >
      {item && <StatusBadge completed={item.isCompleted} />}
      {detail.isPending ? (
        <div role="status" className="flex items-center justify-center gap-2 py-10 text-slate-600 dark:text-slate-400">
          <Spinner className="size-5" />
          {t('automatic.detail.loading')}
        </div>
      ) : detail.isError ? (
        <Alert tone="error" className="mt-3">
          {describeError(detail.error) ?? t('automatic.detail.loadError')}
        </Alert>
      ) : (
        <>
          <div
            role="region"
            aria-label={t('automatic.detail.transcript')}
            tabIndex={0}
            dir={textDirection(detail.data.language)}
            lang={detail.data.language}
            className="mt-3 max-h-[50vh] overflow-y-auto whitespace-pre-wrap break-words rounded-lg border border-slate-200 bg-slate-50 p-3 text-slate-900 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100"
          >
            {detail.data.fullTranscript || <span className="text-slate-600 dark:text-slate-400">{t('automatic.detail.empty')}</span>}
          </div>
          <div className="mt-4 flex justify-end">
            <Button variant="danger" size="sm" onClick={() => setConfirming(true)}>
              {t('automatic.detail.delete')}
            </Button>
          </div>
        </>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('automatic.confirmDelete.title')}
        description={t('automatic.confirmDelete.body', { date })}
        confirmLabel={t('automatic.confirmDelete.confirm')}
        pendingLabel={t('automatic.confirmDelete.deleting')}
        cancelLabel={t('automatic.confirmDelete.cancel')}
        pending={remove.isPending}
        onConfirm={confirmDelete}
      />
    </Dialog>
  );
}
