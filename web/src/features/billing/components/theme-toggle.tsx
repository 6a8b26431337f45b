import type { User } from '@app/shared/schemas/auth';
import { Moon, Sun } from 'lucide';
import { useThemeToggle } from '../../../lib/theme';
import { useBillingT } from '../i18n';
import { Icon } from '../../../components/ui/icon';

/** Dark theme on/off, for Pro users only (the caller decides; free users never see it). */
export function ThemeToggle({ user }: { user: User }) {
  const tb = useBillingT();
  const { theme, toggle } = useThemeToggle(user);
  const dark = theme === 'dark';
  return (
    <button
      type="button"
      aria-pressed={dark}
      aria-label={tb('darkTheme')}
      title={tb('darkTheme')}
      onClick={toggle}
      className="inline-flex size-9 items-center justify-center rounded-lg text-fg-subtle hover:bg-surface-muted"
    >
      {dark ? <Icon node={Sun} size={18} /> : <Icon node={Moon} size={18} />}
    </button>
  );
}
