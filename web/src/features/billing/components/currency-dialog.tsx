import { useState, type FormEvent } from 'react';
import { CURRENCIES, REFUND_DAYS, type Currency } from '@app/shared/constants';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { currentUiLanguage } from '../../../lib/i18n';
import { useCheckout } from '../api/checkout';
import { useBillingT } from '../i18n';
import { formatPrice } from '../lib/price';

/**
 * The currency choice before checkout: USD or BRL with their monthly prices. Continue
 * stays disabled until one is chosen; then a processing state until the browser
 * leaves for the hosted checkout.
 */
export function CurrencyDialog({
  open,
  onOpenChange,
  userId,
  errorTitle,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  userId: string;
  /** Title of the failure toast: the upgrade modal's by default, the pricing page passes its own. */
  errorTitle?: string;
}) {
  const tb = useBillingT();
  const [currency, setCurrency] = useState<Currency | null>(null);
  const checkout = useCheckout({ userId, errorTitle: errorTitle ?? tb('upgradeErrorTitle') });
  const language = currentUiLanguage();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (currency && !checkout.isProcessing) checkout.start(currency);
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={tb('currencyTitle')} description={tb('currencyDescription')}>
      <form onSubmit={submit} className="space-y-5">
        <fieldset disabled={checkout.isProcessing} className="space-y-3">
          <legend className="sr-only">
            {tb('currencyLegend')}
          </legend>
          {CURRENCIES.map((code) => (
            <label
              key={code}
              className="flex cursor-pointer items-center gap-3 rounded-xl border border-input p-4 transition-colors hover:bg-surface-muted has-[:checked]:border-primary has-[:checked]:bg-primary-soft has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-600"
            >
              <input
                type="radio"
                name="currency"
                value={code}
                checked={currency === code}
                onChange={() => setCurrency(code)}
                className="size-4 accent-indigo-600"
              />
              <span className="flex-1 font-medium text-fg">{tb(`currencies.${code}`)}</span>
              <span className="text-sm text-fg-subtle">{tb('perMonth', { price: formatPrice(code, language) })}</span>
            </label>
          ))}
        </fieldset>
        <p className="text-xs text-fg-muted">{tb('refund', { days: REFUND_DAYS })}</p>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={checkout.isProcessing}>
            {tb('cancel')}
          </Button>
          <Button type="submit" disabled={!currency} loading={checkout.isProcessing}>
            {checkout.isProcessing ? tb('processing') : tb('continue')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
