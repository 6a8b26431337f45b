import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast';
import { TITLE_MAX, type RecognitionLanguage } from '@app/shared/constants';
import { saveTranscriptionRequest, SEGMENTS_MAX, type Segment } from '@app/shared/schemas/transcriptions';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/text-field';
import { ApiError, describeError } from '../../../lib/api';
import { useSaveTranscription } from '../api/save-transcription';

export interface SaveInput {
  text: string;
  segments: readonly Segment[];
  durationMs: number;
  language: RecognitionLanguage;
  startedAt: Date;
}

/** Title (required, at most TITLE_MAX, the shared schema's rule) and optional subject. Loaded on demand. */
export default function SaveDialog({
  open,
  onOpenChange,
  getInput,
  onSaved,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Read at submit time: the transcript may still grow while the dialog is open. */
  getInput: () => SaveInput;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveTranscription();
  const [title, setTitle] = useState('');
  const [subject, setSubject] = useState('');
  const [titleError, setTitleError] = useState<string>();
  const [formError, setFormError] = useState<string>();

  const validateTitle = (value: string): string | undefined => {
    const result = saveTranscriptionRequest.shape.title.safeParse(value);
    if (result.success) return undefined;
    return result.error.issues[0]?.code === 'too_big' ? t('transcribe.save.titleTooLong', { max: TITLE_MAX }) : t('transcribe.save.titleRequired');
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const error = validateTitle(title);
    setTitleError(error);
    setFormError(undefined);
    if (error) return;
    const input = getInput();
    save.mutate(
      {
        title: title.trim(),
        subject: subject.trim() || undefined,
        timestamp: input.startedAt.toISOString(),
        duration: Math.round(input.durationMs / 1000),
        fullTranscript: input.text,
        segments: input.segments.slice(0, SEGMENTS_MAX),
        language: input.language,
      },
      {
        onSuccess: () => {
          toast.success(t('transcribe.save.success'));
          onSaved();
          onOpenChange(false);
        },
        onError: (err) => {
          const message = err instanceof ApiError && err.requiresPro ? t('transcribe.save.proOnly') : (describeError(err) ?? t('transcribe.save.error'));
          setFormError(message);
          // The save error toast too: it stays in view if the dialog is closed, and screen readers hear it.
          toast.error(t('transcribe.save.error'), { id: 'transcribe-save-error', description: message });
        },
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t('transcribe.save.title')}>
      <form noValidate onSubmit={submit} className="space-y-4">
        {formError && (
          <Alert tone="error">
            <p className="font-medium">{t('transcribe.save.error')}</p>
            <p>{formError}</p>
          </Alert>
        )}
        <TextField
          label={t('transcribe.save.titleLabel')}
          value={title}
          maxLength={TITLE_MAX + 20}
          required
          autoFocus
          error={titleError}
          onChange={(e) => {
            setTitle(e.target.value);
            if (titleError) setTitleError(validateTitle(e.target.value));
          }}
        />
        <TextField label={t('transcribe.save.subjectLabel')} value={subject} maxLength={TITLE_MAX} onChange={(e) => setSubject(e.target.value)} />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {t('transcribe.save.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {save.isPending ? t('transcribe.save.submitting') : t('transcribe.save.submit')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
