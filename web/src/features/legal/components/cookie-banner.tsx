import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { Button } from '../../../components/ui/button';
import { RichText } from '../../../components/ui/rich-text';
import { useSession } from '../../../lib/auth';
import { useBottomInset, useBottomInsetVariable } from '../../../lib/bottom-inset';
import { acceptCookies, useConsent } from '../lib/consent';

/** Where visitors see the notice: home, login and register. */
export const COOKIE_BANNER_PATHS: readonly string[] = ['/', '/login', '/register'];

/** The cookie notice for visitors on home, login and register, until accepted. */
export function CookieBanner() {
  const { pathname } = useLocation();
  const { user, isLoading } = useSession();
  const accepted = useConsent();
  if (accepted || isLoading || user || !COOKIE_BANNER_PATHS.includes(pathname)) return null;
  return <CookieNotice />;
}

/**
 * A compact bar pinned to the bottom of the screen (the text beside Accept, on a phone too) that
 * reserves its height as the page's bottom inset, so what matters stays above it: the live
 * transcript's newest line, a focused control, the end of the page.
 */
function CookieNotice() {
  const { t } = useTranslation();
  const notice = useRef<HTMLElement>(null);
  const room = useRef<HTMLDivElement>(null);
  useBottomInset(notice);
  useBottomInsetVariable(room);
  return (
    <>
      {/* Room at the end of the page, as tall as the notice, so it never hides the last content. */}
      <div ref={room} aria-hidden="true" className="h-(--bottom-inset)" />
      <section
        ref={notice}
        aria-label={t('cookies.region')}
        className="fixed inset-x-0 bottom-0 z-30 border-t border-border bg-bar/95 px-4 py-3 shadow-[0_-4px_16px_rgb(0_0_0/0.06)] backdrop-blur sm:px-6"
      >
        <div className="mx-auto flex max-w-6xl items-center gap-3 sm:gap-6">
          <p className="min-w-0 flex-1 text-xs text-fg-subtle sm:text-sm">
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
