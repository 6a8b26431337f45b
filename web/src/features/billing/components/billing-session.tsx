import { useEffect } from 'react';
import { useLocation } from 'react-router';
import type { User } from '@app/shared/schemas/auth';
import { openUpgradeAutomatically } from '../../../lib/open-upgrade';
import { transcriptionStartedThisVisit } from '../../../lib/visit';
import { usePlanWatch } from '../hooks/use-plan-watch';
import { useThemeSync } from '../../../lib/theme';
import { takeAutoOpenTurn } from '../lib/plan-memory';

/**
 * The signed-in user's billing side effects: the plan poll (and its success toast),
 * the theme, and the upgrade modal opening by itself once per visit on home for a
 * free user, only before the first transcription of the visit starts (never over a
 * running one). Renders nothing.
 */
export default function BillingSession({ user }: { user: User }) {
  usePlanWatch(user);
  useThemeSync(user);

  const { pathname } = useLocation();
  const isFree = user.plan !== 'pro';
  useEffect(() => {
    if (pathname === '/' && isFree && !transcriptionStartedThisVisit() && takeAutoOpenTurn()) openUpgradeAutomatically();
  }, [pathname, isFree]);

  return null;
}
