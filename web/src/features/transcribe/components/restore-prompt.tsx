import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { formatDate } from '../../../lib/format';
import { currentUiLanguage } from '../../../lib/i18n';
import { formatElapsed } from '../lib/format-elapsed';
import type { RecoveredTranscript } from '../lib/recovery';

/** "Unsaved transcript found": offered after a reload or crash. Loaded only when there is one. */
export default function RestorePrompt({
  recovered,
  onRestore,
  onDiscard,
}: {
  recovered: RecoveredTranscript;
  onRestore: () => void;
  onDiscard: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Alert tone="warning" className="items-start">
      <p className="font-medium">{t('transcribe.restore.title')}</p>
      <p>
        {t('transcribe.restore.body', {
          date: formatDate(recovered.meta.startedAt, currentUiLanguage()),
          duration: formatElapsed(recovered.meta.durationMs),
        })}
      </p>
      <div className="flex flex-wrap gap-2 pt-1">
        <Button size="sm" onClick={onRestore}>
          {t('transcribe.restore.restore')}
        </Button>
        <Button size="sm" variant="secondary" onClick={onDiscard}>
          {t('transcribe.restore.discard')}
        </Button>
      </div>
    </Alert>
  );
}
