import { lazy, Suspense } from 'react';
import type { User } from '@app/shared/schemas/auth';
import { useAccountDeleted } from './use-account-deleted';

/* Your data loads with its own code, after the profile itself. */
const YourData = lazy(() => import('../../../features/account-data/components/your-data'));

/** The profile's Your data (download, delete), with what deleting clears on this browser. */
export function YourDataSection({ user }: { user: User }) {
  const onDeleted = useAccountDeleted(user.id);
  return (
    <Suspense fallback={null}>
      <YourData email={user.email} onDeleted={onDeleted} />
    </Suspense>
  );
}
