import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { User } from '@app/shared/schemas/auth';
import { ChevronDown, CircleHelp, LogOut, User as UserShape } from 'lucide';
import { useLogout } from './use-logout';
import { Icon } from '../../components/ui/icon';

const itemClasses =
  'flex w-full items-center gap-2 rounded-md px-3 py-2 text-sm text-fg-soft outline-none ' +
  'data-[highlighted]:bg-surface-muted data-[highlighted]:text-fg';

export function initialOf(name: string): string {
  return (name.trim().charAt(0) || '?').toLocaleUpperCase();
}

export default function UserMenu({ user }: { user: User }) {
  const { t } = useTranslation();
  const logout = useLogout();
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        aria-label={t('header.accountMenu')}
        className="flex items-center gap-1 rounded-full border border-border-raised bg-surface py-1 pl-1 pr-2 text-sm font-medium text-fg-soft hover:bg-surface-muted"
      >
        <span aria-hidden="true" className="inline-flex size-7 items-center justify-center rounded-full bg-indigo-600 text-xs font-semibold text-white">
          {initialOf(user.name)}
        </span>
        <Icon node={ChevronDown} size={16} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="z-50 min-w-56 rounded-xl border border-border-raised bg-surface p-1 shadow-lg"
        >
          <DropdownMenu.Label className="px-3 py-2">
            <span className="block truncate text-sm font-medium text-fg">{user.name}</span>
            <span className="block truncate text-xs text-fg-muted">{user.email}</span>
          </DropdownMenu.Label>
          <DropdownMenu.Separator className="my-1 h-px bg-border-raised" />
          <DropdownMenu.Item asChild className={itemClasses}>
            <Link to="/profile">
              <Icon node={UserShape} size={16} />
              {t('header.account')}
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item asChild className={itemClasses}>
            <Link to="/help">
              <Icon node={CircleHelp} size={16} />
              {t('header.help')}
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="my-1 h-px bg-border-raised" />
          <DropdownMenu.Item className={itemClasses} onSelect={logout}>
            <Icon node={LogOut} size={16} />
            {t('header.logout')}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
