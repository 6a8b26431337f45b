import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Mic } from 'lucide';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Icon } from '../../../components/ui/icon';

// The password form (and its validation) loads when the dialog is first opened.
const DevModeDialog = lazy(() => import('./dev-mode-dialog'));

/** Shown to everyone but developers while maintenance mode is on. */
export default function MaintenancePage({
  onRetry,
  retrying,
  stillDown,
  onDevMode,
}: {
  onRetry: () => void;
  retrying: boolean;
  stillDown: boolean;
  onDevMode: () => void;
}) {
  const { t } = useTranslation();
  const [dialogOpen, setDialogOpen] = useState(false);
  return (
    <main className="flex min-h-dvh items-center justify-center px-4 py-16">
      <title>{t('app.pageTitle', { page: t('maintenance.pageTitle') })}</title>
      <div className="w-full max-w-lg text-center">
        <p className="inline-flex items-center gap-2 font-semibold text-fg">
          <span aria-hidden="true" className="inline-flex size-8 items-center justify-center rounded-lg bg-indigo-600 text-white">
            <Icon node={Mic} size={18} />
          </span>
          {t('app.name')}
        </p>
        <h1 className="mt-8 text-balance text-3xl font-bold tracking-tight text-fg">{t('maintenance.title')}</h1>
        <p className="mt-4 text-pretty text-lg text-fg-muted">{t('maintenance.body')}</p>
        <div className="mt-6 min-h-12" aria-live="polite">
          {stillDown && !retrying && (
            <Alert tone="warning" live={false} className="text-left">
              <p>{t('maintenance.stillDown')}</p>
            </Alert>
          )}
        </div>
        <div className="mt-4 flex flex-col items-center justify-center gap-3 sm:flex-row">
          <Button size="lg" onClick={onRetry} loading={retrying}>
            {retrying ? t('maintenance.retrying') : t('maintenance.retry')}
          </Button>
          <Button size="lg" variant="ghost" onClick={() => setDialogOpen(true)}>
            {t('maintenance.devMode')}
          </Button>
        </div>
      </div>
      {dialogOpen && (
        <Suspense fallback={null}>
          <DevModeDialog open onOpenChange={setDialogOpen} onSuccess={onDevMode} />
        </Suspense>
      )}
    </main>
  );
}
