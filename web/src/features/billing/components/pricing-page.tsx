import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { REFUND_DAYS } from '@app/shared/constants';
import { Check } from 'lucide';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { FaqAccordion } from '../../../components/ui/faq-accordion';
import { useSession } from '../../../lib/auth';
import { currentUiLanguage } from '../../../lib/i18n';
import { FREE_PLAN, PLAN_VALUES } from '../../../lib/plan-values';
import { useBillingT } from '../i18n';
import { formatMoney, formatPrice, leadCurrency } from '../lib/price';
import { CurrencyDialog } from './currency-dialog';
import { ProBenefits } from './pro-benefits';
import { Icon } from '../../../components/ui/icon';

const FAQ = ['cancel', 'refund', 'currencies', 'payment', 'install'] as const;

/**
 * /pricing: free vs Pro in the shared plan copy, with the prices checkout charges (both currencies), an FAQ.
 * Subscribe: visitors go to sign up; free users choose a currency and go to checkout.
 */
export default function PricingPage() {
  const { t } = useTranslation();
  const tb = useBillingT();
  const { user, isLoading } = useSession();
  const [choosing, setChoosing] = useState(false);
  const language = currentUiLanguage();
  const lead = leadCurrency(language);
  const other = lead === 'USD' ? 'BRL' : 'USD';
  const isPro = user?.plan === 'pro';
  const freeId = useId();
  const proId = useId();

  const prices = { usd: formatPrice('USD', language), brl: formatPrice('BRL', language) };

  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6 sm:py-16">
      <title>{t('app.pageTitle', { page: tb('pricing.title') })}</title>
      <div className="text-center">
        <h1 className="text-balance text-3xl font-bold tracking-tight text-fg sm:text-4xl">{tb('pricing.title')}</h1>
        <p className="mx-auto mt-3 max-w-2xl text-pretty text-lg text-fg-muted">{tb('pricing.subtitle')}</p>
      </div>

      <div className="mt-10 grid gap-6 md:grid-cols-2">
        <section aria-labelledby={freeId}>
          <Card className="flex h-full flex-col">
            <h2 id={freeId} className="text-xl font-semibold text-fg">
              {tb('pricing.freeTitle')}
            </h2>
            <p className="mt-1 text-sm text-fg-muted">{tb('pricing.freeDescription')}</p>
            <p className="mt-6">
              <span className="text-4xl font-bold text-fg">{formatMoney(0, lead, language)}</span>
              <span className="ml-1 text-fg-muted">{tb('pricing.perMonthSuffix')}</span>
            </p>
            <ul className="mt-6 space-y-2">
              {[tb('pricing.freeFeatures.live'), ...FREE_PLAN.map((key) => t(`plans.free.${key}`, PLAN_VALUES))].map((text) => (
                <li key={text} className="flex items-start gap-2 text-sm text-fg-subtle">
                  <Icon node={Check} size={18} className="mt-0.5 shrink-0 text-slate-500" />
                  {text}
                </li>
              ))}
            </ul>
            <p className="mt-4 flex-1 text-sm text-fg-muted">{t('plans.visitor', PLAN_VALUES)}</p>
            <div className="mt-8">
              {!user ? (
                <Link to="/register" className={buttonClasses('secondary', 'lg', 'w-full')}>
                  {tb('pricing.freeCta')}
                </Link>
              ) : (
                !isPro && <p className="text-center text-sm font-medium text-fg-muted">{tb('pricing.currentPlan')}</p>
              )}
            </div>
          </Card>
        </section>

        <section aria-labelledby={proId}>
          <Card highlighted className="flex h-full flex-col">
            <h2 id={proId} className="text-xl font-semibold text-fg">
              {tb('pricing.proTitle')}
            </h2>
            <p className="mt-1 text-sm text-fg-muted">{tb('pricing.proDescription')}</p>
            <p className="mt-6">
              <span className="text-4xl font-bold text-fg">{formatPrice(lead, language)}</span>
              <span className="ml-1 text-fg-muted">{tb('pricing.perMonthSuffix')}</span>
            </p>
            <p className="mt-1 text-sm text-fg-muted">{tb('pricing.orOther', { price: formatPrice(other, language) })}</p>
            <ProBenefits className="mt-6 flex-1" />
            <p className="mt-6 text-sm text-success-soft-fg">{tb('refund', { days: REFUND_DAYS })}</p>
            <div className="mt-4">
              {isLoading ? (
                <Button size="lg" className="w-full" disabled>
                  {tb('pricing.subscribe')}
                </Button>
              ) : !user ? (
                <Link to="/register" className={buttonClasses('primary', 'lg', 'w-full')}>
                  {tb('pricing.subscribe')}
                </Link>
              ) : isPro ? (
                <p className="rounded-lg bg-success-soft py-3 text-center font-semibold text-success-soft-fg">
                  {tb('pricing.youArePro')}
                </p>
              ) : (
                <Button size="lg" className="w-full" onClick={() => setChoosing(true)}>
                  {tb('pricing.subscribe')}
                </Button>
              )}
            </div>
          </Card>
        </section>
      </div>

      <section aria-labelledby="pricing-faq" className="mx-auto mt-16 max-w-3xl">
        <h2 id="pricing-faq" className="text-center text-2xl font-semibold text-fg">
          {tb('pricing.faqTitle')}
        </h2>
        <div className="mt-6">
          <FaqAccordion
            items={FAQ.map((key) => ({
              id: key,
              question: tb(`pricing.faq.${key}.q`),
              answer: tb(`pricing.faq.${key}.a`, { days: REFUND_DAYS, ...prices }),
            }))}
          />
        </div>
      </section>

      {user && !isPro && (
        <CurrencyDialog open={choosing} onOpenChange={setChoosing} userId={user.id} errorTitle={tb('pricing.paymentError')} />
      )}
    </div>
  );
}
