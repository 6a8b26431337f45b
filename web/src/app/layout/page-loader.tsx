import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/ui/spinner';

export function PageLoader() {
  const { t } = useTranslation();
  return (
    <div role="status" className="flex min-h-[40vh] items-center justify-center gap-2 text-fg-muted">
      <Spinner className="size-5" />
      <span className="sr-only">{t('app.loading')}</span>
    </div>
  );
}
