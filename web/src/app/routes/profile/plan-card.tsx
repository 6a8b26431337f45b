import { useTranslation } from 'react-i18next';
import type { User } from '@app/shared/schemas/auth';
import { Button } from '../../../components/ui/button';
import { formatDate } from '../../../lib/format';
import { currentUiLanguage } from '../../../lib/i18n';
import { useMonthlyUsage } from '../../../lib/monthly-usage';
import { PLAN_VALUES } from '../../../lib/plan-values';
import { useOpenPortal } from '../../../features/billing/api/portal';
import { useResumeSubscription } from '../../../features/billing/api/resume-subscription';
import { ProBadge } from '../../../features/billing/components/pro-badge';
import { ProBenefits } from '../../../features/billing/components/pro-benefits';
import { useBillingT } from '../../../features/billing/i18n';
import { openUpgrade } from '../../../lib/open-upgrade';
import { formatPrice, leadCurrency } from '../../../features/billing/lib/price';
import { Section } from './section';

/**
 * The plan card. Pro: the renewal date, manage and cancel (both the Stripe customer portal, in a
 * new tab); once cancelled, the day Pro ends, Renew (here, at once) and manage. Free: the price and
 * an upgrade. Both: what Pro includes.
 */
export function PlanCard({ user }: { user: User }) {
  const { t } = useTranslation();
  const tb = useBillingT();
  const portal = useOpenPortal();
  const resume = useResumeSubscription();
  const language = currentUiLanguage();
  const isPro = user.plan === 'pro';
  // Cancelled at the end of the paid period: Pro until then, and it can still be renewed.
  const cancelled = isPro && user.planRenews === false;
  const lead = leadCurrency(language);
  const other = lead === 'USD' ? 'BRL' : 'USD';
  const usage = useMonthlyUsage(!isPro);

  return (
    <Section title={t('profile.plan')}>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <p className="text-sm text-fg-muted">{t('profile.currentPlan')}</p>
          <p className="mt-1 flex items-center gap-2 text-2xl font-semibold text-fg">
            {isPro ? t('profile.planPro') : t('profile.planFree')}
            {isPro && <ProBadge />}
          </p>
          <p className="mt-1 text-sm text-fg-muted">{isPro ? t('profile.proDescription', PLAN_VALUES) : t('profile.freeDescription', PLAN_VALUES)}</p>
          {isPro && user.planExpiry && (
            <p className="mt-1 text-sm text-fg-muted">
              {cancelled
                ? t('profile.planEnds', { date: formatDate(user.planExpiry, language) })
                : t('profile.planRenews', { date: formatDate(user.planExpiry, language) })}
            </p>
          )}
          {!isPro && usage.data !== undefined && (
            <p className="mt-1 text-sm text-fg-muted">{t('automatic.counter', { ...PLAN_VALUES, count: usage.data })}</p>
          )}
          {!isPro && (
            <p className="mt-3 text-sm text-fg-subtle">
              {tb('planCard.price', { price: formatPrice(lead, language), other: formatPrice(other, language) })}
            </p>
          )}
        </div>
        {cancelled ? (
          <div className="flex flex-col gap-2 sm:items-end">
            <Button onClick={resume.renew} loading={resume.isRenewing}>
              {tb('renewSubscription')}
            </Button>
            <Button variant="secondary" onClick={portal.open} loading={portal.isOpening}>
              {tb('manageSubscription')}
            </Button>
            <p className="text-xs text-fg-muted">{tb('planCard.manageHint')}</p>
          </div>
        ) : isPro ? (
          <div className="flex flex-col gap-2 sm:items-end">
            <Button variant="secondary" onClick={portal.open} loading={portal.isOpening}>
              {tb('manageSubscription')}
            </Button>
            <button
              type="button"
              onClick={portal.open}
              disabled={portal.isOpening}
              className="inline-flex h-10 items-center justify-center rounded-lg px-4 text-sm font-medium text-danger hover:bg-danger-soft disabled:cursor-not-allowed disabled:opacity-60"
            >
              {tb('cancelSubscription')}
            </button>
            <p className="text-xs text-fg-muted">{tb('planCard.portalHint')}</p>
          </div>
        ) : (
          <div className="flex flex-col gap-2 sm:items-end">
            <Button onClick={openUpgrade}>{tb('upgradeToPro')}</Button>
            <p className="text-xs text-fg-muted">{tb('planCard.manageWithPro')}</p>
          </div>
        )}
      </div>
      <div className="mt-6 border-t border-border pt-5">
        <h3 className="text-sm font-semibold text-fg">{tb('planCard.features')}</h3>
        <ProBenefits className="mt-3 sm:grid sm:grid-cols-2 sm:gap-x-6 sm:space-y-0 sm:gap-y-2" />
        <p className="mt-4 text-sm text-fg-muted">{tb('planCard.desktopSoon')}</p>
      </div>
    </Section>
  );
}
