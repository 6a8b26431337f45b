import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { textDirection } from '@app/shared/constants';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { describeError } from '../../../lib/api';
import { useBackGuard } from '../../../lib/back-guard';
import { toast } from '../../../lib/toast';
import { useDeleteTranscription } from '../api/delete-transcription';
import type { useTranscriptionDetail } from '../api/get-transcription';
import type { TranscriptionKind } from '../kinds';
import { TranscriptionEditor } from './transcription-editor';

interface TranscriptionDialogProps<K extends TranscriptionKind> {
  kind: K;
  /** The open transcription, or null when closed. */
  id: string | null;
  detail: ReturnType<typeof useTranscriptionDetail<K>>;
  onClose: () => void;
  title: ReactNode;
  /** Under the title, printed too: the date (what else it says hides itself in print). */
  description: ReactNode;
  /** The delete confirmation's text, naming the transcription. */
  confirmBody: string;
  /** Shown above the text (an automatic transcription's status). */
  header?: ReactNode;
  /** Shown beside Delete once the text is loaded (a saved transcription's exports). */
  actions?: ReactNode;
  /** Offers Edit (an automatic transcription only once completed). */
  editable?: boolean;
  /** The title Edit can rename (a saved transcription's); absent: not renamable. */
  editableTitle?: string;
}

/**
 * One transcription: its full text, Edit (when editable) and delete (with a confirmation); the kind
 * adds its title, header and actions. Closing with unsaved edits asks first. Printed, it is a clean
 * document: the title, the description and the whole text.
 */
export function TranscriptionDialog<K extends TranscriptionKind>(props: TranscriptionDialogProps<K>) {
  const { kind, id, detail, onClose, title, description, confirmBody, header, actions, editable = false, editableTitle } = props;
  const { t } = useTranslation();
  /** The kind's locale section. */
  const copy: TranscriptionKind = kind;
  const remove = useDeleteTranscription(kind);
  const [confirming, setConfirming] = useState(false);
  const [editing, setEditing] = useState(false);
  const [dirty, setDirty] = useState(false);
  /** What to do once unsaved edits are discarded: leave edit mode, close the dialog too, or go back (the browser's Back). */
  const [discarding, setDiscarding] = useState<'cancel' | 'close' | 'back' | null>(null);
  const backGuard = useBackGuard(editing && dirty, () => setDiscarding('back'));

  const stopEditing = () => {
    setEditing(false);
    setDirty(false);
  };
  const requestClose = () => {
    if (editing && dirty) return setDiscarding('close');
    stopEditing();
    onClose();
  };
  const discard = () => {
    const then = discarding;
    setDiscarding(null);
    stopEditing();
    if (then === 'close') onClose();
    if (then === 'back') backGuard.leave();
  };
  const keepEditing = () => {
    if (discarding === 'back') backGuard.stay();
    setDiscarding(null);
  };

  const confirmDelete = () => {
    if (!id) return;
    remove.mutate(id, {
      onSuccess: () => {
        setConfirming(false);
        onClose();
        toast.success(t(`${copy}.deleted`));
      },
      onError: (error) => {
        setConfirming(false);
        toast.error(t(`${copy}.deleteError`), { description: describeError(error) });
      },
    });
  };

  return (
    <Dialog
      open={id !== null}
      onOpenChange={(open) => !open && requestClose()}
      title={title}
      description={description}
      className="sm:max-w-2xl"
      printable
    >
      {header && <div className="mb-3 print:hidden">{header}</div>}
      {detail.isPending ? (
        <div role="status" className="flex items-center justify-center gap-2 py-10 text-fg-muted">
          <Spinner className="size-5" />
          {t(`${copy}.detail.loading`)}
        </div>
      ) : detail.isError ? (
        <Alert tone="error">{describeError(detail.error) ?? t(`${copy}.detail.loadError`)}</Alert>
      ) : editing && id ? (
        <TranscriptionEditor
          kind={kind}
          id={id}
          detail={detail.data}
          title={editableTitle}
          onDirtyChange={setDirty}
          onCancel={() => (dirty ? setDiscarding('cancel') : stopEditing())}
          onDone={stopEditing}
        />
      ) : (
        <>
          <div
            role="region"
            aria-label={t(`${copy}.detail.transcript`)}
            tabIndex={0}
            dir={textDirection(detail.data.language)}
            lang={detail.data.language ?? undefined}
            className="max-h-[50vh] overflow-y-auto whitespace-pre-wrap break-words rounded-lg border border-border-raised bg-canvas p-3 text-fg print:max-h-none print:overflow-visible print:rounded-none print:border-0 print:bg-transparent print:p-0 print:text-black"
          >
            {detail.data.fullTranscript || <span className="text-fg-muted">{t(`${copy}.detail.empty`)}</span>}
          </div>
          <div className="mt-4 flex flex-wrap items-center justify-between gap-3 print:hidden">
            {actions}
            {editable && (
              <Button variant="secondary" size="sm" className="ml-auto" onClick={() => setEditing(true)}>
                {t('editor.edit')}
              </Button>
            )}
            <Button variant="danger" size="sm" className={editable ? undefined : 'ml-auto'} onClick={() => setConfirming(true)}>
              {t(`${copy}.detail.delete`)}
            </Button>
          </div>
        </>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t(`${copy}.confirmDelete.title`)}
        description={confirmBody}
        confirmLabel={t(`${copy}.confirmDelete.confirm`)}
        pendingLabel={t(`${copy}.confirmDelete.deleting`)}
        cancelLabel={t(`${copy}.confirmDelete.cancel`)}
        pending={remove.isPending}
        onConfirm={confirmDelete}
      />
      <ConfirmDialog
        open={discarding !== null}
        onOpenChange={(open) => !open && keepEditing()}
        title={t('editor.discard.title')}
        description={t('editor.discard.body')}
        confirmLabel={t('editor.discard.confirm')}
        pendingLabel={t('editor.discard.confirm')}
        cancelLabel={t('editor.discard.cancel')}
        onConfirm={discard}
      />
    </Dialog>
  );
}
