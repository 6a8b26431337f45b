import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { REFUND_DAYS } from '@app/shared/constants';
import type { User } from '@app/shared/schemas/auth';
import { Sparkles } from 'lucide';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { currentUiLanguage } from '../../../lib/i18n';
import { transcriptionStartedThisVisit } from '../../../lib/visit';
import { useBillingT } from '../i18n';
import { formatPrice, leadCurrency } from '../lib/price';
import { CurrencyDialog } from './currency-dialog';
import { ProBenefits } from './pro-benefits';
import { Icon } from '../../../components/ui/icon';

/**
 * The upgrade modal (benefits, refund guarantee) and, after "Upgrade now", the
 * currency dialog. Visitors are offered an account first; Pro users are told they
 * have it. Loaded on first use only.
 */
export default function UpgradeFlow({
  open: requestedOpen,
  automatic = false,
  onOpenChange,
  user,
}: {
  open: boolean;
  /** Opened by itself, not by the user: then it never shows once a transcription has started (read now: this code may load late). */
  automatic?: boolean;
  onOpenChange: (open: boolean) => void;
  user: User | null;
}) {
  const { t } = useTranslation();
  const tb = useBillingT();
  const [step, setStep] = useState<'benefits' | 'currency'>('benefits');
  const suppressed = requestedOpen && automatic && transcriptionStartedThisVisit();
  const open = requestedOpen && !suppressed;
  useEffect(() => {
    if (suppressed) onOpenChange(false);
  }, [suppressed, onOpenChange]);
  const change = (next: boolean) => {
    if (!next) setStep('benefits'); // reopening starts from the benefits
    onOpenChange(next);
  };

  const language = currentUiLanguage();
  const price = formatPrice(leadCurrency(language), language);
  const close = () => change(false);
  const isPro = user?.plan === 'pro';

  return (
    <>
      <Dialog
        open={open && step === 'benefits'}
        onOpenChange={change}
        title={
          <span className="flex items-center gap-2">
            <Icon node={Sparkles} size={20} className="text-amber-500" />
            {isPro ? tb('alreadyPro') : tb('modalTitle')}
          </span>
        }
        description={isPro ? tb('upgradeSuccessDescription') : tb('modalDescription', { price })}
      >
        <ProBenefits />
        <p className="mt-4 rounded-lg bg-success-soft px-3 py-2 text-sm text-success-soft-fg">
          {tb('refund', { days: REFUND_DAYS })}
        </p>
        {!isPro && (
          <p className="mt-3 text-sm">
            <Link to="/pricing" onClick={close} className="font-medium text-primary-strong underline-offset-4 hover:underline">
              {tb('seePricing')}
            </Link>
          </p>
        )}
        <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          {isPro ? (
            <Button onClick={close}>{t('dialog.close')}</Button>
          ) : user ? (
            <>
              <Button variant="secondary" onClick={close}>
                {tb('notNow')}
              </Button>
              <Button onClick={() => setStep('currency')}>{tb('upgradeNow')}</Button>
            </>
          ) : (
            <>
              <Link to="/login" onClick={close} className={buttonClasses('secondary')}>
                {t('header.login')}
              </Link>
              <Link to="/register" onClick={close} className={buttonClasses('primary')}>
                {tb('visitorCta')}
              </Link>
            </>
          )}
        </div>
      </Dialog>
      {user && !isPro && <CurrencyDialog open={open && step === 'currency'} onOpenChange={change} userId={user.id} />}
    </>
  );
}
