import { Component, lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import type { User } from '@app/shared/schemas/auth';
import { useSession } from '../../../lib/auth';
import { OPEN_UPGRADE_EVENT } from '../../../lib/open-upgrade';

/* None of these loads for a visitor who never asks to upgrade: the home route stays small. */
const UpgradeFlow = lazy(() => import('./upgrade-flow'));
const BillingSession = lazy(() => import('./billing-session'));
const HeaderBilling = lazy(() => import('./header-billing'));

/** A billing extra whose code failed to load (offline, new deploy) renders nothing instead of taking the page down. */
class Optional extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

/**
 * Mounted once in the app layout: listens for the `open-upgrade` window event (the
 * header's Upgrade button, every Pro hint, the automatic opening on home) and runs
 * the signed-in user's plan polling and theme.
 */
export function BillingShell() {
  const { user, isLoading } = useSession();
  const [open, setOpen] = useState(false);
  const [automatic, setAutomatic] = useState(false);
  const [requested, setRequested] = useState(false);

  useEffect(() => {
    const onOpen = (event: Event) => {
      setAutomatic((event as CustomEvent<{ automatic?: boolean } | undefined>).detail?.automatic === true);
      setRequested(true);
      setOpen(true);
    };
    window.addEventListener(OPEN_UPGRADE_EVENT, onOpen);
    return () => window.removeEventListener(OPEN_UPGRADE_EVENT, onOpen);
  }, []);

  // A visitor never has the dark theme (index.html applies a stored one before the session is known).
  useEffect(() => {
    if (!isLoading && !user) document.documentElement.classList.remove('dark');
  }, [isLoading, user]);

  return (
    <Optional>
      {user && (
        <Suspense fallback={null}>
          <BillingSession key={user.id} user={user} />
        </Suspense>
      )}
      {requested && (
        <Suspense fallback={null}>
          <UpgradeFlow open={open} automatic={automatic} onOpenChange={setOpen} user={user ?? null} />
        </Suspense>
      )}
    </Optional>
  );
}

/** The header's slot for a signed-in user: Upgrade, or the Pro badge with manage and the theme toggle. */
export function HeaderBillingSlot({ user }: { user: User }) {
  return (
    <Optional>
      <Suspense fallback={null}>
        <HeaderBilling user={user} />
      </Suspense>
    </Optional>
  );
}
