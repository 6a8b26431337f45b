import { lazy, Suspense } from 'react';
import { useDevMode } from '../lib/dev-mode';

const Badge = lazy(() => import('./dev-mode-badge-content'));

/**
 * The header's DEV MODE badge; its exit button clears the flag and the bypass token (the
 * maintenance gate then checks again). Its markup loads only once dev mode is on: no visitor
 * downloads it on first load.
 */
export function DevModeBadge() {
  const devMode = useDevMode();
  if (!devMode) return null;
  return (
    <Suspense fallback={null}>
      <Badge />
    </Suspense>
  );
}
