import { Menu } from 'lucide';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import type { User } from '@app/shared/schemas/auth';
import { Icon } from '../../components/ui/icon';

/* The sheet and Radix Dialog load when the menu first opens: every page's first load carries only the button. */
const MobileMenuSheet = lazy(() => import('./mobile-menu-sheet'));

/** Below the md breakpoint: a button opening every header link in a sheet. */
export function MobileMenu({ user }: { user: User | null }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  if (open && !opened) setOpened(true);
  const button = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();

  // Close when the page changes.
  useEffect(() => setOpen(false), [pathname]);

  return (
    <div className="md:hidden">
      <button
        ref={button}
        type="button"
        aria-label={t('header.mobileMenu')}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? 'mobile-menu' : undefined}
        onClick={() => setOpen((v) => !v)}
        className="inline-flex size-10 items-center justify-center rounded-lg text-fg-subtle hover:bg-surface-muted"
      >
        <Icon node={Menu} size={20} />
      </button>
      {opened && (
        <Suspense fallback={null}>
          <MobileMenuSheet id="mobile-menu" user={user} open={open} onOpenChange={setOpen} trigger={button} />
        </Suspense>
      )}
    </div>
  );
}
