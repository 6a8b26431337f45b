import type { User } from '@app/shared/schemas/auth';
import { ExternalLink, Sparkles } from 'lucide';
import { Button } from '../../../components/ui/button';
import { ThemeToggle } from '../../../components/ui/theme-toggle';
import { useThemeToggle } from '../../../lib/theme';
import { useOpenPortal } from '../api/portal';
import { useBillingT } from '../i18n';
import { openUpgrade } from '../../../lib/open-upgrade';
import { ProBadge } from './pro-badge';
import { Icon } from '../../../components/ui/icon';

/** The header's billing corner for a signed-in user: Pro badge, manage and theme, or Upgrade. */
export default function HeaderBilling({ user }: { user: User }) {
  const tb = useBillingT();
  const portal = useOpenPortal();
  const theme = useThemeToggle(user);

  if (user.plan !== 'pro') {
    return (
      <Button size="sm" onClick={openUpgrade} className="bg-linear-to-r from-indigo-600 to-violet-600 hover:from-indigo-700 hover:to-violet-700">
        <Icon node={Sparkles} size={16} />
        {tb('upgrade')}
      </Button>
    );
  }
  return (
    <div className="flex items-center gap-1 sm:gap-2">
      {/* The dark theme is a Pro feature: only Pro users get its toggle. */}
      <ThemeToggle dark={theme.theme === 'dark'} label={tb('darkTheme')} onToggle={theme.toggle} />
      <ProBadge />
      {/* Phones: manage from the profile's plan card; the header keeps room for the menu. */}
      <span className="hidden sm:contents">
        <Button variant="ghost" size="sm" onClick={portal.open} loading={portal.isOpening} aria-label={tb('manageSubscription')}>
          {tb('manage')}
          {!portal.isOpening && <Icon node={ExternalLink} size={14} />}
        </Button>
      </span>
    </div>
  );
}
