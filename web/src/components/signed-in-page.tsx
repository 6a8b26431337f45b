import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { User } from '@app/shared/schemas/auth';
import { useSession } from '../lib/auth';
import { returnState } from '../lib/return-to';
import { buttonClasses } from './ui/button';
import { Card } from './ui/card';
import { Spinner } from './ui/spinner';

interface SignedInPageProps {
  /** The page's <title>, rendered in every state. */
  title: ReactNode;
  /** What a visitor sees instead of the page. */
  loginRequired: { title: string; text: string; button: string };
  children: (user: User) => ReactNode;
}

/** A page for signed-in users: a spinner while the session loads, a login prompt (that returns here) for visitors. */
export function SignedInPage({ title, loginRequired, children }: SignedInPageProps) {
  const { t } = useTranslation();
  const { user, isLoading } = useSession();
  const location = useLocation();

  if (isLoading) {
    return (
      <div role="status" className="flex min-h-[40vh] items-center justify-center gap-2">
        {title}
        <Spinner className="size-5" />
        <span className="sr-only">{t('app.loading')}</span>
      </div>
    );
  }

  if (!user) {
    return (
      <div className="mx-auto max-w-md px-4 py-16">
        {title}
        <Card className="text-center">
          <h1 className="text-xl font-semibold text-fg">{loginRequired.title}</h1>
          <p className="mt-2 text-fg-muted">{loginRequired.text}</p>
          {/* After logging in, the login page brings the user back to this page. */}
          <Link to="/login" state={returnState(location)} className={buttonClasses('primary', 'lg', 'mt-6 w-full')}>
            {loginRequired.button}
          </Link>
        </Card>
      </div>
    );
  }

  return children(user);
}
