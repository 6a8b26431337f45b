import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { SignedInPage } from '../../../components/signed-in-page';
import PasskeysSection from '../../../features/auth/components/passkeys-section';
import { CaptionStyleSettings } from './caption-style-settings';
import { ChangePasswordForm } from './change-password-form';
import { CorrectionsSettings } from './corrections-settings';
import { LanguageSettings } from './language-settings';
import { PersonalInfoForm } from './personal-info-form';
import { PlanCard } from './plan-card';
import { SignOutEverywhere } from './sign-out-everywhere';
import { YourDataSection } from './your-data-section';

/* The live links list loads with the live feature's code, after the profile itself. */
const LiveLinks = lazy(() => import('../../../features/live/components/live-links'));

export default function ProfilePage() {
  const { t } = useTranslation();
  const title = <title>{t('app.pageTitle', { page: t('profile.title') })}</title>;
  return (
    <SignedInPage title={title} loginRequired={{ title: t('profile.loginRequiredTitle'), text: t('profile.loginRequired'), button: t('profile.loginButton') }}>
      {(user) => (
        <div className="mx-auto max-w-3xl space-y-6 px-4 py-10 sm:px-6">
          {title}
          <h1 className="text-3xl font-semibold tracking-tight text-fg">{t('profile.title')}</h1>
          <PersonalInfoForm key={user.id} user={user} />
          <ChangePasswordForm key={`password-${user.id}`} email={user.email} />
          <PasskeysSection key={`passkeys-${user.id}`} />
          <SignOutEverywhere userId={user.id} />
          <LanguageSettings user={user} />
          <CorrectionsSettings user={user} />
          <CaptionStyleSettings />
          <PlanCard user={user} />
          <Suspense fallback={null}>
            <LiveLinks isPro={user.plan === 'pro'} />
          </Suspense>
          <YourDataSection user={user} />
        </div>
      )}
    </SignedInPage>
  );
}
