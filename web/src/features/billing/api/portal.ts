import { useMutation } from '../../../lib/mutation';
import { toast } from '../../../lib/toast';
import { api, ApiError } from '../../../lib/api';
import { useBillingT } from '../i18n';
import { browser } from '../lib/browser';

/**
 * POST /stripe/portal, opened in a new tab. The tab is opened inside the click, so
 * popup blockers let it through, and pointed at the portal when the URL arrives;
 * if no tab could be opened, this tab goes there instead (the portal links back).
 */
export function useOpenPortal() {
  const tb = useBillingT();
  const mutation = useMutation({
    mutationFn: (_tab: Window | null) => api('portal'),
    onSuccess: ({ url }, tab) => {
      if (tab && !tab.closed) {
        tab.opener = null; // the portal must not reach back into this page
        tab.location.href = url;
      } else {
        browser.assign(url);
      }
    },
    onError: (error, tab) => {
      tab?.close();
      const none = error instanceof ApiError && error.code === 'no_subscription';
      toast.error(tb('portalErrorTitle'), {
        description: none ? tb('portalNoSubscription') : tb('portalErrorDescription'),
      });
    },
  });
  return {
    open: () => mutation.mutate(browser.openBlankTab()),
    isOpening: mutation.isPending,
  };
}
