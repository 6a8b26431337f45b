import { lazy, Suspense } from 'react';
import { useUser } from '../../lib/auth';

/* The banner's code loads only for a user who has not verified their address. */
const VerifyEmailBanner = lazy(() => import('../../features/auth/components/verify-email-banner'));

/**
 * Until the signed-in user verifies their address (the API says `emailVerified: false`; accounts
 * made before verification existed too), a banner under the header on every page.
 */
export function EmailVerification() {
  const user = useUser();
  if (user?.emailVerified !== false) return null;
  return (
    <Suspense fallback={null}>
      <VerifyEmailBanner email={user.email} />
    </Suspense>
  );
}
