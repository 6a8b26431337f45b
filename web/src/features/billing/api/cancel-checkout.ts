import { useEffect } from 'react';
import { api } from '../../../lib/api';
import { useUser } from '../../../lib/auth';

/**
 * POST /stripe/checkout/cancel once a signed-in user is back from the hosted checkout without
 * paying: the abandoned checkout can no longer be paid, and a new one (another currency too) can
 * start at once. Best effort: if it fails, the checkout still expires by itself.
 */
export function useCancelOpenCheckout(): void {
  const userId = useUser()?.id;
  useEffect(() => {
    if (!userId) return;
    api('cancelCheckout').catch(() => undefined);
  }, [userId]);
}
