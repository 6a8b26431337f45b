import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button';

export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center">
      <title>{t('app.pageTitle', { page: t('notFound.title') })}</title>
      <p aria-hidden="true" className="text-6xl font-bold text-primary">
        404
      </p>
      <h1 className="mt-4 text-2xl font-semibold text-fg">{t('notFound.title')}</h1>
      <p className="mt-2 text-fg-muted">{t('notFound.body')}</p>
      <Link to="/" className={buttonClasses('primary', 'lg', 'mt-8')}>
        {t('notFound.home')}
      </Link>
    </div>
  );
}
