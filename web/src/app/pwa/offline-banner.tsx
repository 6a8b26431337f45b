import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { isOnline, setReachabilityProbe, subscribeOnline } from '../../lib/connectivity';
import { request } from '../../lib/api';

/** The smallest request the server answers, anonymous and never from a cache; status 0 is no answer. */
setReachabilityProbe(async () => (await request('maintenanceMode', { asUser: null, cache: 'no-store' })).status !== 0);

export function useOnline(): boolean {
  return useSyncExternalStore(subscribeOnline, isOnline, () => true);
}

/** A clear offline state: the app shell still works (service worker); what needs the network says so. */
export function OfflineBanner() {
  const { t } = useTranslation();
  const online = useOnline();
  return (
    <div role="status" className="empty:hidden">
      {!online && (
        <div className="border-b border-amber-300 bg-warning-soft px-4 py-2 text-center text-sm text-warning-soft-fg dark:border-amber-800">
          <strong className="font-semibold">{t('site.offline.title')}</strong> {t('site.offline.body')}
        </div>
      )}
    </div>
  );
}
