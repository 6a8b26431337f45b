import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useQueryClient } from '../../../lib/query';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TITLE_MAX, textDirection } from '@app/shared/constants';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { dialogContentClasses, dialogOverlayClasses } from '../../../components/ui/dialog';
import { ApiError, describeError } from '../../../lib/api';
import { PRIVATE_TEXT } from '../../../lib/private-text';
import { toast } from '../../../lib/toast';
import { transcriptionKeys } from '../api/keys';
import { useUpdateTranscription } from '../api/update-transcription';
import type { TranscriptionDetailOf, TranscriptionKind } from '../kinds';
import { ApplyReplacements } from './apply-replacements';
import { fieldClasses } from './filter-field';

/** Past this length the browser's spell check (work over the whole text) is off. */
const SPELLCHECK_MAX_CHARS = 50_000;

interface TranscriptionEditorProps<K extends TranscriptionKind> {
  kind: K;
  id: string;
  /** The transcription as loaded when editing began: its version is the one the edit is made on. */
  detail: TranscriptionDetailOf<K>;
  /** Its title, when it can be renamed (a saved transcription). */
  title?: string;
  /** Told when the edit first differs from what was loaded, and when it is saved or dropped. */
  onDirtyChange: (dirty: boolean) => void;
  /** Cancel: the caller asks before dropping unsaved changes. */
  onCancel: () => void;
  /** Saved, or reloaded after a conflict: editing ends. */
  onDone: () => void;
}

/**
 * Edit mode of a transcription: its text in a plain textarea (uncontrolled, so the browser's own
 * undo and redo work and typing costs no more than the textarea's own work, whatever the length),
 * the title when it can be renamed, Save (also Ctrl/Cmd+S) and Cancel. Saving sends the version
 * the edit was made on; when the transcription changed elsewhere meanwhile, a dialog offers
 * Reload (take that version, dropping this edit) or Overwrite (save this edit over it).
 */
export function TranscriptionEditor<K extends TranscriptionKind>({ kind, id, detail: loaded, title, onDirtyChange, onCancel, onDone }: TranscriptionEditorProps<K>) {
  const { t } = useTranslation();
  // What editing began from: a refetch of the detail meanwhile must not move the version this edit is made on.
  const [detail] = useState(loaded);
  const queryClient = useQueryClient();
  const update = useUpdateTranscription(kind);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const [titleValue, setTitleValue] = useState(title ?? '');
  const [dirty, setDirty] = useState(false);
  const [error, setError] = useState<string>();
  /** The version the server holds after a conflict; null when there is none. */
  const [conflict, setConflict] = useState<number | null>(null);
  const fieldId = useId();
  const renamable = title !== undefined;

  const markDirty = () => {
    if (dirty) return;
    setDirty(true);
    onDirtyChange(true);
  };

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const finish = () => {
    setDirty(false);
    onDirtyChange(false);
    onDone();
  };

  const save = (version = detail.version) => {
    if (update.isPending) return;
    const text = textRef.current?.value ?? detail.fullTranscript;
    const newTitle = titleValue.trim();
    if (renamable && !newTitle) {
      setError(t('editor.titleRequired'));
      return;
    }
    const textChanged = text !== detail.fullTranscript;
    const titleChanged = renamable && newTitle !== title;
    if (!textChanged && !titleChanged && version === detail.version) return finish();
    setError(undefined);
    update.mutate(
      { id, version, ...(textChanged && { fullTranscript: text }), ...(titleChanged && { title: newTitle }) },
      {
        onSuccess: () => {
          setConflict(null);
          toast.success(t('editor.saved'));
          finish();
        },
        onError: (err) => {
          if (err instanceof ApiError && err.code === 'version_conflict' && err.version !== undefined) setConflict(err.version);
          else {
            setConflict(null);
            setError(describeError(err) ?? t('editor.saveError'));
          }
        },
      },
    );
  };

  const reload = () => {
    setConflict(null);
    void queryClient.invalidateQueries({ queryKey: transcriptionKeys.detail(kind, id) });
    finish();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    // Only Ctrl/Cmd+S: every other shortcut (Ctrl/Cmd+Z undo among them) stays the browser's.
    if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 's') {
      event.preventDefault();
      save();
    }
  };

  return (
    <div className="flex flex-col gap-3">
      {renamable && (
        <div>
          <label htmlFor={`${fieldId}-title`} className="mb-1 block text-sm font-medium text-fg">
            {t('editor.title')}
          </label>
          <input
            id={`${fieldId}-title`}
            dir="auto"
            value={titleValue}
            maxLength={TITLE_MAX}
            onKeyDown={onKeyDown}
            onChange={(event) => {
              setTitleValue(event.target.value);
              markDirty();
            }}
            className={fieldClasses}
          />
        </div>
      )}
      <div>
        <label htmlFor={`${fieldId}-text`} className="mb-1 block text-sm font-medium text-fg">
          {t('editor.text')}
        </label>
        <textarea
          id={`${fieldId}-text`}
          ref={textRef}
          defaultValue={detail.fullTranscript}
          onInput={markDirty}
          onKeyDown={onKeyDown}
          dir={textDirection(detail.language)}
          lang={detail.language ?? undefined}
          spellCheck={detail.fullTranscript.length <= SPELLCHECK_MAX_CHARS}
          aria-describedby={`${fieldId}-hint`}
          className="block h-[50vh] w-full resize-y rounded-lg border border-input bg-canvas p-3 text-base text-fg focus:border-indigo-600"
        />
        <p id={`${fieldId}-hint`} className="mt-1 text-xs text-fg-muted">
          {dirty ? t('editor.unsaved') : t('editor.hint')}
        </p>
      </div>
      {error && <Alert tone="error">{error}</Alert>}
      <div className="flex flex-wrap justify-end gap-2">
        <span className="mr-auto">
          <ApplyReplacements textRef={textRef} onChange={markDirty} />
        </span>
        <Button variant="secondary" size="sm" onClick={onCancel} disabled={update.isPending}>
          {t('editor.cancel')}
        </Button>
        <Button size="sm" onClick={() => save()} loading={update.isPending}>
          {update.isPending ? t('editor.saving') : t('editor.save')}
        </Button>
      </div>
      <ConflictDialog
        open={conflict !== null}
        pending={update.isPending}
        onKeepEditing={() => setConflict(null)}
        onReload={reload}
        onOverwrite={() => conflict !== null && save(conflict)}
      />
    </div>
  );
}

/** The transcription changed elsewhere: Reload (drop this edit) or Overwrite (save it over that version). */
function ConflictDialog(props: { open: boolean; pending: boolean; onKeepEditing: () => void; onReload: () => void; onOverwrite: () => void }) {
  const { t } = useTranslation();
  return (
    <AlertDialog.Root open={props.open} onOpenChange={(open) => !open && !props.pending && props.onKeepEditing()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={dialogOverlayClasses} />
        <AlertDialog.Content className={dialogContentClasses} {...PRIVATE_TEXT}>
          <AlertDialog.Title className="text-lg font-semibold">{t('editor.conflict.title')}</AlertDialog.Title>
          <AlertDialog.Description className="mt-1 text-sm text-fg-muted">{t('editor.conflict.body')}</AlertDialog.Description>
          <div className="mt-4 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel asChild>
              <Button variant="secondary" disabled={props.pending}>
                {t('editor.conflict.keepEditing')}
              </Button>
            </AlertDialog.Cancel>
            <Button variant="secondary" onClick={props.onReload} disabled={props.pending}>
              {t('editor.conflict.reload')}
            </Button>
            <Button variant="danger" onClick={props.onOverwrite} loading={props.pending}>
              {props.pending ? t('editor.saving') : t('editor.conflict.overwrite')}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
