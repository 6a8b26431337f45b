import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { User } from '@app/shared/schemas/auth';
import { ChevronDown, CircleHelp, LogOut, User as UserShape } from 'lucide';
import { useLogout } from './use-logout';
import { Icon } from '../../components/ui/icon';

const itemClasses =
  'flex w-full items-center gap-2 rounded-md px-3 py-2 text-sm text-slate-800 outline-none ' +
  'data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-950 dark:text-slate-200 dark:data-[highlighted]:bg-slate-800 dark:data-[highlighted]:text-white';

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
        className="flex items-center gap-1 rounded-full border border-slate-200 bg-white py-1 pl-1 pr-2 text-sm font-medium text-slate-800 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
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
          className="z-50 min-w-56 rounded-xl border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          <DropdownMenu.Label className="px-3 py-2">
            <span className="block truncate text-sm font-medium text-slate-900 dark:text-white">{user.name}</span>
            <span className="block truncate text-xs text-slate-600 dark:text-slate-400">{user.email}</span>
          </DropdownMenu.Label>
          <DropdownMenu.Separator className="my-1 h-px bg-slate-200 dark:bg-slate-700" />
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
          <DropdownMenu.Separator className="my-1 h-px bg-slate-200 dark:bg-slate-700" />
          <DropdownMenu.Item className={itemClasses} onSelect={logout}>
            <Icon node={LogOut} size={16} />
            {t('header.logout')}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
