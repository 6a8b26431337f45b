import { isValidElement, Suspense, type ComponentType } from 'react';
import { matchRoutes, Navigate, useRoutes, type RouteObject } from 'react-router';
import { withPageCopy } from '../lib/i18n';
import { lazyWithPreload as lazyPage } from '../lib/lazy-preload';
import { preloadOnDevicePanel } from '../features/transcribe/on-device/lazy-panel';
import { RootLayout } from './layout/root-layout';

type Preloadable = { preload: () => Promise<unknown> };

/** A page other than home: its chunk and the English copy of such pages load together. */
function otherPage<T extends ComponentType>(load: () => Promise<{ default: T }>) {
  return lazyPage(withPageCopy(load));
}

/* Every page is its own chunk: the home route loads only the shell and the home page. */
/* Where the browser has on-device recognition, its panel (in the card's first render) loads beside the page. */
const HomePage = lazyPage(() => Promise.all([import('./routes/home/home-page'), preloadOnDevicePanel()]).then(([page]) => page));
const LoginPage = otherPage(() => import('../features/auth/components/login-page'));
const RegisterPage = otherPage(() => import('../features/auth/components/register-page'));
const ForgotPasswordPage = otherPage(() => import('../features/auth/components/forgot-password-page'));
const ResetPasswordPage = otherPage(() => import('../features/auth/components/reset-password-page'));
const VerifyEmailPage = otherPage(() => import('../features/auth/components/verify-email-page'));
const ProfilePage = otherPage(() => import('./routes/profile/profile-page'));
const NotFoundPage = otherPage(() => import('./routes/not-found-page'));
const SavedTranscriptionsPage = otherPage(() => import('../features/transcriptions/components/saved-page'));
const AutomaticTranscriptionsPage = otherPage(() => import('../features/transcriptions/components/automatic-page'));
const HelpPage = otherPage(() => import('../features/help/components/help-page'));
const TermsPage = otherPage(() => import('../features/legal/components/terms-page'));
const PricingPage = otherPage(() => import('../features/billing/components/pricing-page'));
const BillingSuccessPage = otherPage(() => import('../features/billing/components/billing-success-page'));
const BillingCancelledPage = otherPage(() => import('../features/billing/components/billing-cancelled-page'));
/* Public: anyone with a share's link follows its captions, signed in or not. */
const LiveViewerPage = otherPage(() => import('../features/live/components/viewer-page'));
/* A share's captions alone, for a video mixer's browser source: no layout around them. */
const LiveOverlayPage = lazyPage(() => import('../features/live/components/overlay-page'));

/** /history was the saved transcriptions' address before /transcricoes: links to it still land there. */
const legacyHistoryRedirect: RouteObject = { path: 'history', element: <Navigate to="/transcricoes" replace /> };

export const routes: RouteObject[] = [
  // Outside the root layout: no header, footer, cookie notice, measurement, survey or toasts.
  {
    path: 'live/:code/overlay',
    element: (
      <Suspense fallback={null}>
        <LiveOverlayPage />
      </Suspense>
    ),
  },
  {
    element: <RootLayout />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'login', element: <LoginPage /> },
      { path: 'register', element: <RegisterPage /> },
      { path: 'forgot-password', element: <ForgotPasswordPage /> },
      { path: 'reset-password', element: <ResetPasswordPage /> },
      { path: 'verify-email', element: <VerifyEmailPage /> },
      // Links sent before the token moved to the fragment: the page takes it and clears the address.
      { path: 'reset-password/:token', element: <ResetPasswordPage /> },
      { path: 'profile', element: <ProfilePage /> },
      { path: 'transcricoes', element: <SavedTranscriptionsPage /> },
      { path: 'transcricoes-automaticas', element: <AutomaticTranscriptionsPage /> },
      { path: 'help', element: <HelpPage /> },
      { path: 'terms', element: <TermsPage /> },
      { path: 'pricing', element: <PricingPage /> },
      { path: 'billing/success', element: <BillingSuccessPage /> },
      { path: 'billing/cancelled', element: <BillingCancelledPage /> },
      { path: 'live/:code', element: <LiveViewerPage /> },
      legacyHistoryRedirect,
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/** Starts fetching the page chunk of `pathname` (called at startup, in parallel with the locale). */
export function preloadRoute(pathname: string): Promise<unknown> {
  const element = matchRoutes(routes, pathname)?.at(-1)?.route.element;
  return (isValidElement(element) && (element.type as Partial<Preloadable>).preload?.()) || Promise.resolve();
}

export function AppRoutes() {
  return useRoutes(routes);
}
