import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { buttonClasses } from '../../components/ui/button';
import { cn } from '../../components/ui/cn';
import { HeaderBillingSlot } from '../../features/billing/components/billing-shell';
import { DevModeBadge } from '../../features/maintenance/components/dev-mode-badge';
import { useSession } from '../../lib/auth';
import { Logo } from './logo';
import { MobileMenu } from './mobile-menu';
import { NAV_ITEMS, NavItemLink } from './nav-items';

/* Radix's menu (with its positioning engine) loads only for signed-in users. */
const UserMenu = lazy(() => import('./user-menu'));

const navLinkClasses = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-md px-3 py-2 text-sm font-medium transition-colors',
    isActive
      ? 'bg-primary-soft text-primary-strong'
      : 'text-fg-subtle hover:bg-surface-muted hover:text-fg',
  );

export function Header() {
  const { t } = useTranslation();
  const { user, isLoading } = useSession();

  return (
    <header className="sticky top-0 z-40 border-b border-border bg-bar/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-4 sm:px-6">
        <Logo />
        {user && (
          <nav aria-label={t('header.mainNav')} className="hidden md:block">
            <ul className="flex items-center gap-1">
              {NAV_ITEMS.map((item) => (
                <li key={item.to}>
                  <NavItemLink item={item} isPro={user.plan === 'pro'} className={navLinkClasses} />
                </li>
              ))}
            </ul>
          </nav>
        )}
        <div className="ml-auto flex items-center gap-2">
          <DevModeBadge />
          {!isLoading && !user && (
            <div className="hidden items-center gap-2 md:flex">
              <NavLink to="/pricing" className={navLinkClasses}>
                {t('header.pricing')}
              </NavLink>
              <Link to="/login" className={buttonClasses('ghost', 'sm')}>
                {t('header.login')}
              </Link>
              <Link to="/register" className={buttonClasses('primary', 'sm')}>
                {t('header.register')}
              </Link>
            </div>
          )}
          {/* Upgrade, or the Pro badge with manage and the theme toggle (loaded for signed-in users only). */}
          {user && <HeaderBillingSlot user={user} />}
          {user && (
            <div className="hidden md:block">
              <Suspense fallback={<div aria-hidden="true" className="h-9 w-16 rounded-full border border-border-raised" />}>
                <UserMenu user={user} />
              </Suspense>
            </div>
          )}
          {!isLoading && <MobileMenu user={user ?? null} />}
        </div>
      </div>
    </header>
  );
}
