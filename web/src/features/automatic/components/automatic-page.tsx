import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { useSession } from '../../../lib/auth';
import { AutomaticTranscriptions } from './automatic-transcriptions';

/** /transcricoes-automaticas: the sessions autosaved while the user spoke (SPEC section 2). Login required. */
export default function AutomaticPage() {
  const { t } = useTranslation();
  const { user, isLoading } = useSession();
  const title = <title>{t('app.pageTitle', { page: t('automatic.title') })}</title>;

  if (isLoading) {
    return (
      <div role="status" className="flex min-h-[40vh] items-center justify-center">
        {title}
        <Spinner className="size-5" />
        <span className="sr-only">{t('app.loading')}</span>
      </div>
    );
  }

  if (!user) {
    return (
      <div className="mx-auto max-w-md px-4 py-16">
        {title}
        <Card className="text-center">
          <h1 className="text-xl font-semibold text-slate-900 dark:text-white">{t('automatic.loginRequiredTitle')}</h1>
          <p className="mt-2 text-slate-600 dark:text-slate-400">{t('automatic.loginRequired')}</p>
          <Link to="/login" className={buttonClasses('primary', 'lg', 'mt-6 w-full')}>
            {t('automatic.loginButton')}
          </Link>
        </Card>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:px-6 sm:py-10">
      {title}
      <AutomaticTranscriptions key={user.id} isPro={user.plan === 'pro'} />
    </div>
  );
}
