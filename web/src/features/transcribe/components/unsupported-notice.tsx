import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';

/** In place of Start when the browser has no speech recognition. Loaded only then. */
export default function UnsupportedNotice() {
  const { t } = useTranslation();
  return (
    <Alert tone="warning">
      <p className="font-medium">{t('transcribe.unsupported.title')}</p>
      <p>{t('transcribe.unsupported.body')}</p>
    </Alert>
  );
}
