import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast';
import { TITLE_MAX, type RecognitionLanguage } from '@app/shared/constants';
import { saveTranscriptionRequest, SEGMENTS_MAX, type Segment } from '@app/shared/schemas/transcriptions';
import * as z from 'zod';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/text-field';
import { ApiError, describeError } from '../../../lib/api';
import { i18n } from '../../../lib/i18n';
import { useSchemaForm } from '../../../lib/validation';
import { useSaveTranscription } from '../api/save-transcription';

export interface SaveInput {
  text: string;
  segments: readonly Segment[];
  durationMs: number;
  language: RecognitionLanguage;
  startedAt: Date;
}

// The save request's rules for what the dialog asks (the request's own refinement is about the transcript).
const saveForm = z.object({ title: saveTranscriptionRequest.shape.title, subject: saveTranscriptionRequest.shape.subject });
const saveCopy = {
  title: (code: string) => (code === 'too_big' ? i18n.t('transcribe.save.titleTooLong', { max: TITLE_MAX }) : i18n.t('transcribe.save.titleRequired')),
};

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
  // An invalid title is checked again as it is edited; a failed save shows above the fields until the next submit.
  const { field, handleSubmit, setError, formState } = useSchemaForm(saveForm, saveCopy, {
    defaultValues: { title: '', subject: '' },
    revalidate: true,
    focusError: false,
  });

  const submit = ({ title, subject }: z.infer<typeof saveForm>) => {
    const input = getInput();
    save.mutate(
      {
        title,
        subject: subject || undefined,
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
          setError('root', { message });
          // The save error toast too: it stays in view if the dialog is closed, and screen readers hear it.
          toast.error(t('transcribe.save.error'), { id: 'transcribe-save-error', description: message });
        },
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t('transcribe.save.title')}>
      <form noValidate onSubmit={handleSubmit(submit)} className="space-y-4">
        {formState.errors.root && (
          <Alert tone="error">
            <p className="font-medium">{t('transcribe.save.error')}</p>
            <p>{formState.errors.root.message}</p>
          </Alert>
        )}
        {/* eslint-disable-next-line jsx-a11y/no-autofocus -- a dialog the user opened starts in its first field */}
        <TextField {...field('title')} label={t('transcribe.save.titleLabel')} maxLength={TITLE_MAX + 20} required autoFocus />
        <TextField {...field('subject')} label={t('transcribe.save.subjectLabel')} maxLength={TITLE_MAX} />
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
