import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { BillingShell } from '../../features/billing/components/billing-shell';
import { OfflineBanner } from '../pwa/offline-banner';
import { SiteExtras } from './site-extras';
import { EmailVerification } from './email-verification';
import { PageErrorBoundary } from './error-boundary';
import { Footer } from './footer';
import { Header } from './header';
import { PageLoader } from './page-loader';
import { ScrollToTop } from './scroll-to-top';
import { PRIVATE_TEXT } from '../../lib/private-text';
import { loadToaster, useToasterWanted } from '../../lib/toast';

/* sonner loads with the first toast, not with the page. */
const Toaster = lazy(loadToaster);

export function RootLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const toasterWanted = useToasterWanted();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-white px-4 py-2 font-medium text-indigo-700 shadow focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
      >
        {t('app.skipToContent')}
      </a>
      <Header />
      <OfflineBanner />
      <EmailVerification />
      <main id="main" tabIndex={-1} className="flex-1 outline-none" {...PRIVATE_TEXT}>
        {/* Keyed by path so a failed page does not stick after navigating away. */}
        <PageErrorBoundary key={pathname}>
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </PageErrorBoundary>
      </main>
      <Footer />
      {/* Cookie notice and measurement (visitors), survey (signed-in users). */}
      <SiteExtras />
      {toasterWanted && (
        <Suspense fallback={null}>
          <Toaster
            position="top-center"
            richColors
            closeButton
            containerAriaLabel={t('toasts.region')}
            toastOptions={{ closeButtonAriaLabel: t('dialog.close') }}
          />
        </Suspense>
      )}
      <ScrollToTop />
      {/* The upgrade modal (window event 'open-upgrade'), plan polling and the Pro theme. */}
      <BillingShell />
    </div>
  );
}
