import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { Button } from '../../../components/ui/button';
import { RichText } from '../../../components/ui/rich-text';
import { useSession } from '../../../lib/auth';
import { acceptCookies, useConsent } from '../lib/consent';

/** Where visitors see the notice: home, login and register. */
export const COOKIE_BANNER_PATHS: readonly string[] = ['/', '/login', '/register'];

/** The cookie notice for visitors on home, login and register, until accepted. */
export function CookieBanner() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { user, isLoading } = useSession();
  const accepted = useConsent();
  if (accepted || isLoading || user || !COOKIE_BANNER_PATHS.includes(pathname)) return null;
  return (
    <>
      {/* Room at the end of the page, so the notice never hides the last content. */}
      <div aria-hidden="true" className="h-36 sm:h-24" />
      <section
        aria-label={t('cookies.region')}
        className="fixed inset-x-0 bottom-0 z-30 border-t border-border bg-bar/95 px-4 py-4 shadow-[0_-4px_16px_rgb(0_0_0/0.06)] backdrop-blur sm:px-6"
      >
        <div className="mx-auto flex max-w-6xl flex-col gap-3 sm:flex-row sm:items-center sm:justify-between sm:gap-6">
          <p className="text-sm text-fg-subtle">
            <RichText
              text={t('cookies.text')}
              parts={{
                termsLink: (text) => (
                  <Link to="/terms" className="rounded font-medium text-primary-strong underline underline-offset-4">
                    {text}
                  </Link>
                ),
              }}
            />
          </p>
          <Button onClick={() => void acceptCookies()} className="shrink-0 sm:min-w-28">
            {t('cookies.accept')}
          </Button>
        </div>
      </section>
    </>
  );
}
