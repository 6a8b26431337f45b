import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClasses } from '../../../components/ui/button';

export type PlaceholderPageName = 'help' | 'terms' | 'pricing' | 'transcriptions';

/** Stands in for pages that later issues build (help, terms, pricing, history). */
export default function PlaceholderPage({ page }: { page: PlaceholderPageName }) {
  const { t } = useTranslation();
  const title = t(`pages.${page}`);
  return (
    <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
      <title>{t('app.pageTitle', { page: title })}</title>
      <h1 className="text-3xl font-semibold tracking-tight text-slate-900 dark:text-white">{title}</h1>
      <p className="mt-4 text-slate-600 dark:text-slate-400">{t('pages.comingSoon')}</p>
      <Link to="/" className={buttonClasses('secondary', 'md', 'mt-8')}>
        {t('pages.backHome')}
      </Link>
    </div>
  );
}
