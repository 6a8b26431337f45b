import { useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/mutation';
import { toast } from '../../../lib/toast';
import type { Currency } from '@app/shared/constants';
import { api, ApiError } from '../../../lib/api';
import { authKeys } from '../../../lib/auth';
import { useBillingT } from '../i18n';
import { browser } from '../lib/browser';
import { rememberCheckoutOrigin, rememberPlan } from '../lib/plan-memory';

/**
 * POST /stripe/checkout {currency}, then off to the hosted checkout. The processing
 * state lasts until the browser leaves (success keeps it on). A failure shows the
 * destructive toast with `errorTitle` (the upgrade modal's, or the pricing page's). The server
 * keeps one checkout open per user: asking again in the open one's currency answers its page,
 * another currency is refused until it is paid, cancelled or expired.
 */
export function useCheckout({ userId, errorTitle }: { userId: string; errorTitle: string }) {
  const tb = useBillingT();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (currency: Currency) => api('checkout', { body: { currency } }),
    onSuccess: ({ url }) => {
      // Coming back Pro, the plan watcher compares against this and greets the user.
      rememberPlan(userId, 'free');
      // Back from the checkout without paying returns here.
      rememberCheckoutOrigin(`${window.location.pathname}${window.location.search}`);
      browser.assign(url);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'already_pro') {
        toast.info(tb('alreadyPro'));
        void queryClient.invalidateQueries({ queryKey: authKeys.me() });
        return;
      }
      if (error instanceof ApiError && error.code === 'checkout_open') {
        toast.error(tb('checkoutOpenTitle'), { description: tb('checkoutOpenDescription') });
        return;
      }
      toast.error(errorTitle, { description: tb('upgradeErrorDescription') });
    },
  });
  return {
    start: (currency: Currency) => mutation.mutate(currency),
    isProcessing: mutation.isPending || mutation.isSuccess,
  };
}
