import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide';
import { useEffect, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import type { User } from '@app/shared/schemas/auth';
import { buttonClasses } from '../../components/ui/button';
import { cn } from '../../components/ui/cn';
import { NAV_ITEMS, NavItemLink } from './nav-items';
import { useLogout } from './use-logout';
import { Icon } from '../../components/ui/icon';

/** Tailwind's `md` breakpoint, from which the header shows its links itself. */
const WIDE_QUERY = '(min-width: 768px)';

const linkClasses = ({ isActive }: { isActive: boolean }) =>
  cn(
    'block rounded-md px-3 py-3 text-base font-medium',
    isActive
      ? 'bg-primary-soft text-primary-strong'
      : 'text-fg-soft hover:bg-surface-muted',
  );

/**
 * The mobile menu: a sheet over the top of the page (Radix Dialog: focus kept inside, Escape,
 * a click outside or Close closes it and the focus goes back to the menu button, the page
 * behind is hidden from assistive technology). It closes when the screen grows to the width
 * where the header shows its links.
 */
export default function MobileMenuSheet({
  id,
  user,
  open,
  onOpenChange,
  trigger,
}: {
  id: string;
  user: User | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger: RefObject<HTMLButtonElement | null>;
}) {
  const { t } = useTranslation();
  const logout = useLogout();

  useEffect(() => {
    if (!open) return;
    const wide = window.matchMedia(WIDE_QUERY);
    const onChange = () => wide.matches && onOpenChange(false);
    wide.addEventListener('change', onChange);
    return () => wide.removeEventListener('change', onChange);
  }, [open, onOpenChange]);

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/40" />
        <Dialog.Content
          id={id}
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            trigger.current?.focus();
          }}
          className="fixed inset-x-0 top-0 z-50 max-h-dvh overflow-y-auto border-b border-border bg-bar shadow-lg"
        >
          <div className="flex h-16 items-center justify-between gap-4 px-4 sm:px-6">
            <Dialog.Title className="text-base font-semibold text-fg">{t('header.mobileMenu')}</Dialog.Title>
            <Dialog.Close
              aria-label={t('dialog.close')}
              className="inline-flex size-10 items-center justify-center rounded-lg text-fg-subtle hover:bg-surface-muted"
            >
              <Icon node={X} size={20} />
            </Dialog.Close>
          </div>
          <nav aria-label={t('header.mobileNav')} className="px-4 pb-4 sm:px-6">
            {user ? (
              <ul className="space-y-1">
                {NAV_ITEMS.map((item) => (
                  <li key={item.to}>
                    <NavItemLink item={item} isPro={user.plan === 'pro'} className={linkClasses} />
                  </li>
                ))}
                <li className="border-t border-border pt-1">
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
              <div className="grid gap-2">
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
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
