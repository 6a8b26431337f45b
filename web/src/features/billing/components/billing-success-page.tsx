import { useQuery } from '../../../lib/query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { SESSION_ID_SHOWN_CHARS } from '@app/shared/constants';
import { CircleCheck } from 'lucide';
import { buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { useSession } from '../../../lib/auth';
import { planStatusQuery } from '../api/plan-status';
import { useBillingT } from '../i18n';
import { Icon } from '../../../components/ui/icon';

/** While the webhook is pending, the plan is checked this often, for at most this long. */
export const SUCCESS_POLL_MS = 2_000;
export const SUCCESS_POLL_CAP_MS = 60_000;

/**
 * /billing/success?session_id=...: back from the hosted checkout. Shows the start of
 * the session id and the plan: "Pro active", or "processing" while the webhook is on
 * its way (checked every 2 s, for up to a minute, then a hint).
 */
export default function BillingSuccessPage() {
  const { t } = useTranslation();
  const tb = useBillingT();
  const [params] = useSearchParams();
  const sessionId = params.get('session_id')?.slice(0, SESSION_ID_SHOWN_CHARS) ?? '';
  const { user, isLoading } = useSession();
  const [gaveUp, setGaveUp] = useState(false);

  const status = useQuery({
    ...planStatusQuery(),
    enabled: Boolean(user),
    refetchInterval: (query) => (query.state.data?.isPro || gaveUp ? false : SUCCESS_POLL_MS),
  });
  const isPro = status.data?.isPro === true;

  useEffect(() => {
    if (isPro) return;
    const timer = setTimeout(() => setGaveUp(true), SUCCESS_POLL_CAP_MS);
    return () => clearTimeout(timer);
  }, [isPro]);

  return (
    <div className="mx-auto max-w-lg px-4 py-16">
      <title>{t('app.pageTitle', { page: tb('success.title') })}</title>
      <Card className="text-center">
        <span className="mx-auto inline-flex size-14 items-center justify-center rounded-full bg-success-soft text-success">
          <Icon node={CircleCheck} size={28} />
        </span>
        <h1 className="mt-4 text-2xl font-semibold text-fg">{tb('success.title')}</h1>
        <p className="mt-2 text-fg-muted">{tb('success.body')}</p>
        {sessionId && (
          <p className="mt-4 text-sm text-fg-muted">
            {tb('success.session')} <code className="rounded bg-surface-muted px-1.5 py-0.5 font-mono text-fg-soft">{sessionId}</code>
          </p>
        )}

        <div role="status" className="mt-6">
          {!isLoading && !user ? (
            <p className="text-fg-subtle">{tb('success.loginRequired')}</p>
          ) : isPro ? (
            <p className="inline-flex items-center gap-2 rounded-full bg-success-soft px-4 py-2 font-semibold text-success-soft-fg">
              {tb('success.proActive')}
            </p>
          ) : (
            <>
              <p className="inline-flex items-center gap-2 rounded-full bg-warning-soft px-4 py-2 font-medium text-warning-soft-fg">
                <Spinner />
                {tb('success.processing')}
              </p>
              {gaveUp && <p className="mt-3 text-sm text-fg-muted">{tb('success.slow')}</p>}
            </>
          )}
        </div>

        <div className="mt-8 flex flex-col gap-2 sm:flex-row sm:justify-center">
          {!isLoading && !user && (
            <Link to="/login" className={buttonClasses('primary')}>
              {t('header.login')}
            </Link>
          )}
          {isPro && (
            <Link to="/transcricoes" className={buttonClasses('primary')}>
              {tb('success.viewSaved')}
            </Link>
          )}
          <Link to="/" className={buttonClasses('secondary')}>
            {tb('goHome')}
          </Link>
        </div>
      </Card>
    </div>
  );
}
