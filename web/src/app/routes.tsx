import { isValidElement, lazy, type ComponentType } from 'react';
import { matchRoutes, Navigate, useRoutes, type RouteObject } from 'react-router';
import { RootLayout } from './layout/root-layout';

type Preloadable = { preload: () => void };

/** A page in its own chunk, with a way to start loading it before it renders. */
function lazyPage<T extends ComponentType<any>>(load: () => Promise<{ default: T }>) {
  return Object.assign(lazy(load), { preload: () => void load() });
}

/* Every page is its own chunk: the home route loads only the shell and the home page. */
const HomePage = lazyPage(() => import('../features/home/components/home-page'));
const LoginPage = lazyPage(() => import('../features/auth/components/login-page'));
const RegisterPage = lazyPage(() => import('../features/auth/components/register-page'));
const ForgotPasswordPage = lazyPage(() => import('../features/auth/components/forgot-password-page'));
const ResetPasswordPage = lazyPage(() => import('../features/auth/components/reset-password-page'));
const ProfilePage = lazyPage(() => import('../features/profile/components/profile-page'));
const PlaceholderPage = lazyPage(() => import('../features/site/components/placeholder-page'));
const NotFoundPage = lazyPage(() => import('../features/site/components/not-found-page'));

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'login', element: <LoginPage /> },
      { path: 'register', element: <RegisterPage /> },
      { path: 'forgot-password', element: <ForgotPasswordPage /> },
      { path: 'reset-password/:token', element: <ResetPasswordPage /> },
      { path: 'profile', element: <ProfilePage /> },
      // Owned by later issues; placeholders until then.
      { path: 'transcricoes', element: <PlaceholderPage page="transcriptions" /> },
      { path: 'help', element: <PlaceholderPage page="help" /> },
      { path: 'terms', element: <PlaceholderPage page="terms" /> },
      { path: 'pricing', element: <PlaceholderPage page="pricing" /> },
      { path: 'history', element: <Navigate to="/transcricoes" replace /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/** Starts fetching the page chunk of `pathname` (called at startup, in parallel with the locale). */
export function preloadRoute(pathname: string): void {
  const element = matchRoutes(routes, pathname)?.at(-1)?.route.element;
  if (isValidElement(element)) (element.type as Partial<Preloadable>).preload?.();
}

export function AppRoutes() {
  return useRoutes(routes);
}
