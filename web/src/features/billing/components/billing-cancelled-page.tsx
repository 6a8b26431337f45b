import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { useCancelOpenCheckout } from '../api/cancel-checkout';
import { useBillingT } from '../i18n';
import { checkoutOrigin } from '../lib/plan-memory';

/** /billing/cancelled: back from the hosted checkout without paying. */
export default function BillingCancelledPage() {
  const { t } = useTranslation();
  const tb = useBillingT();
  const navigate = useNavigate();
  useCancelOpenCheckout();
  // Back to where the checkout started (the previous history entry is the checkout page itself); else the pricing page.
  const back = () => void navigate(checkoutOrigin() ?? '/pricing');

  return (
    <div className="mx-auto max-w-lg px-4 py-16">
      <title>{t('app.pageTitle', { page: tb('cancelled.title') })}</title>
      <Card className="text-center">
        <h1 className="text-2xl font-semibold text-fg">{tb('cancelled.title')}</h1>
        <p className="mt-2 text-fg-muted">{tb('cancelled.body')}</p>
        <div className="mt-8 flex flex-col gap-2 sm:flex-row sm:justify-center">
          <Button variant="secondary" onClick={back}>
            {tb('cancelled.back')}
          </Button>
          <Link to="/" className={buttonClasses('primary')}>
            {tb('goHome')}
          </Link>
        </div>
      </Card>
    </div>
  );
}
