import { lazy, startTransition, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/ui/spinner';
import { withPageCopy } from '../../../lib/i18n';
import { setDevMode, useDevMode } from '../lib/dev-mode';
import { fetchMaintenanceMode, initialMaintenanceCheck, initialPageReady } from '../lib/maintenance-check';

/* The maintenance page (its dialog and copy) load only when the site is in maintenance. */
const MaintenancePage = lazy(withPageCopy(() => import('./maintenance-page')));

export type GateState = 'checking' | 'maintenance' | 'open';

/** The start-up screen while the maintenance check runs (usually a few milliseconds). */
export function LoadingScreen() {
  const { t } = useTranslation();
  return (
    <div role="status" className="flex min-h-dvh items-center justify-center text-fg-muted">
      <Spinner className="size-6" />
      <span className="sr-only">{t('app.loading')}</span>
    </div>
  );
}

/**
 * Maintenance mode: a loading screen, then the maintenance page or the
 * app. A failed check counts as "not in maintenance"; developer mode skips the check.
 * Leaving developer mode (the header's exit button) checks again.
 */
export function MaintenanceGate({ children }: { children: ReactNode }) {
  const devMode = useDevMode();
  const [state, setState] = useState<GateState>(devMode ? 'open' : 'checking');
  const [retrying, setRetrying] = useState(false);
  const [stillDown, setStillDown] = useState(false);
  const lastDevMode = useRef<boolean | null>(null);

  useEffect(() => {
    // The first run uses the check main.tsx started; a later switch out of dev mode checks anew.
    const switched = lastDevMode.current !== null && lastDevMode.current !== devMode;
    lastDevMode.current = devMode;
    if (devMode) {
      setState('open');
      return;
    }
    let active = true;
    setState('checking');
    setStillDown(false);
    void (switched ? fetchMaintenanceMode() : initialMaintenanceCheck())
      .then(async (on): Promise<GateState> => {
        if (on) return 'maintenance';
        if (!switched) await initialPageReady();
        return 'open';
      })
      .then((next) => {
        // A transition: the app's first render is sliced into short tasks, the loader stays meanwhile.
        if (active) startTransition(() => setState(next));
      });
    return () => {
      active = false;
    };
  }, [devMode]);

  const retry = async () => {
    setRetrying(true);
    const on = await fetchMaintenanceMode();
    setRetrying(false);
    setStillDown(on);
    setState(on ? 'maintenance' : 'open');
  };

  if (state === 'checking') return <LoadingScreen />;
  if (state === 'maintenance') {
    // A live overlay sits over a video mixer's picture: it shows nothing rather than a page.
    if (document.documentElement.classList.contains('overlay')) return null;
    return (
      <Suspense fallback={<LoadingScreen />}>
        <MaintenancePage onRetry={retry} retrying={retrying} stillDown={stillDown} onDevMode={() => setDevMode(true)} />
      </Suspense>
    );
  }
  return children;
}
