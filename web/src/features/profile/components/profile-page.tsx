import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { useSession } from '../../../lib/auth';
import { LanguageSettings } from './language-settings';
import { PersonalInfoForm } from './personal-info-form';
import { PlanCard } from './plan-card';

export default function ProfilePage() {
  const { t } = useTranslation();
  const { user, isLoading } = useSession();
  const title = <title>{t('app.pageTitle', { page: t('profile.title') })}</title>;

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
          <h1 className="text-xl font-semibold text-slate-900 dark:text-white">{t('profile.loginRequiredTitle')}</h1>
          <p className="mt-2 text-slate-600 dark:text-slate-400">{t('profile.loginRequired')}</p>
          <Link to="/login" className={buttonClasses('primary', 'lg', 'mt-6 w-full')}>
            {t('profile.loginButton')}
          </Link>
        </Card>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-10 sm:px-6">
      {title}
      <h1 className="text-3xl font-semibold tracking-tight text-slate-900 dark:text-white">{t('profile.title')}</h1>
      <PersonalInfoForm key={user.id} user={user} />
      <LanguageSettings user={user} />
      <PlanCard user={user} />
    </div>
  );
}
