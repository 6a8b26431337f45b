import { useTranslation } from 'react-i18next';
import type { User } from '@app/shared/schemas/auth';
import { Button } from '../../../components/ui/button';
import { formatDate } from '../../../lib/format';
import { currentUiLanguage } from '../../../lib/i18n';
import { Section } from './section';

/** The plan card. Manage and cancel (the Stripe portal) come with the billing issue. */
export function PlanCard({ user }: { user: User }) {
  const { t } = useTranslation();
  const isPro = user.plan === 'pro';
  return (
    <Section title={t('profile.plan')}>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <p className="text-sm text-slate-600 dark:text-slate-400">{t('profile.currentPlan')}</p>
          <p className="mt-1 text-2xl font-semibold text-slate-900 dark:text-white">{isPro ? t('profile.planPro') : t('profile.planFree')}</p>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{isPro ? t('profile.proDescription') : t('profile.freeDescription')}</p>
          {isPro && user.planExpiry && (
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
              {t('profile.planRenews', { date: formatDate(user.planExpiry, currentUiLanguage()) })}
            </p>
          )}
        </div>
        {!isPro && (
          <Button variant="secondary" disabled>
            {t('profile.comingSoon')}
          </Button>
        )}
      </div>
    </Section>
  );
}
