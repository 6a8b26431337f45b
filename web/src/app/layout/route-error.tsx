import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button';

export function RouteError() {
  const { t } = useTranslation();
  return (
    <div role="alert" className="mx-auto flex max-w-md flex-col items-center gap-4 px-4 py-20 text-center">
      <title>{t('app.pageTitle', { page: t('app.errorTitle') })}</title>
      <h1 className="text-2xl font-semibold">{t('app.errorTitle')}</h1>
      <p className="text-fg-muted">{t('app.errorBody')}</p>
      <Button onClick={() => window.location.reload()}>{t('app.reload')}</Button>
    </div>
  );
}
