import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router';
import type { User } from '@app/shared/schemas/auth';
import { buttonClasses } from '../../components/ui/button';
import { cn } from '../../components/ui/cn';
import { CloseIcon, MenuIcon } from '../../components/ui/icons';
import { NAV_ITEMS } from './nav-items';
import { useLogout } from './use-logout';

const linkClasses = ({ isActive }: { isActive: boolean }) =>
  cn(
    'block rounded-md px-3 py-3 text-base font-medium',
    isActive
      ? 'bg-indigo-50 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300'
      : 'text-slate-800 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800',
  );

/** Below the md breakpoint: a disclosure with every header link. */
export function MobileMenu({ user }: { user: User | null }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const location = useLocation();
  const logout = useLogout();

  // Close when the page changes.
  useEffect(() => setOpen(false), [location.pathname]);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <div className="md:hidden">
      <button
        ref={buttonRef}
        type="button"
        aria-label={t('header.mobileMenu')}
        aria-expanded={open}
        aria-controls="mobile-menu"
        onClick={() => setOpen((v) => !v)}
        className="inline-flex size-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
      >
        {open ? <CloseIcon /> : <MenuIcon />}
      </button>
      <div
        id="mobile-menu"
        hidden={!open}
        className="absolute inset-x-0 top-16 border-b border-slate-200 bg-white px-4 pb-4 pt-2 shadow-lg dark:border-slate-800 dark:bg-slate-950"
      >
        <nav aria-label={t('header.mobileNav')}>
          {user ? (
            <ul className="space-y-1">
              {NAV_ITEMS.map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to} end={item.end} className={linkClasses}>
                    {t(item.label)}
                  </NavLink>
                </li>
              ))}
              <li className="border-t border-slate-200 pt-1 dark:border-slate-800">
                <NavLink to="/profile" className={linkClasses}>
                  {t('header.account')}
                </NavLink>
              </li>
              <li>
                <button type="button" onClick={logout} className={cn(linkClasses({ isActive: false }), 'w-full text-left')}>
                  {t('header.logout')}
                </button>
              </li>
            </ul>
          ) : (
            <div className="grid gap-2 pt-2">
              <NavLink to="/pricing" className={linkClasses}>
                {t('header.pricing')}
              </NavLink>
              <Link to="/login" className={buttonClasses('secondary', 'lg')}>
                {t('header.login')}
              </Link>
              <Link to="/register" className={buttonClasses('primary', 'lg')}>
                {t('header.register')}
              </Link>
            </div>
          )}
        </nav>
      </div>
    </div>
  );
}
