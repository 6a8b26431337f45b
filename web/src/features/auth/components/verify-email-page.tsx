import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { verifyEmailRequest } from '@app/shared/schemas/auth';
import { Alert } from '../../../components/ui/alert';
import { api } from '../../../lib/api';
import { authKeys } from '../../../lib/auth';
import { useQueryClient } from '../../../lib/query';
import { useDescribeVerifyError, useVerifyEmailT } from '../verify-email-i18n';
import { AuthCard, textLinkClasses } from './auth-card';

export const VERIFY_PATH = '/verify-email';

type State = { status: 'checking' } | { status: 'done' } | { status: 'failed'; message?: string | undefined } | { status: 'missing' };

/**
 * The verification link's page (`/verify-email#<token>`): the token leaves the address at once,
 * is sent once, and the answer shows; the signed-in user's banner goes with success.
 */
export default function VerifyEmailPage() {
  const t = useVerifyEmailT();
  const describe = useDescribeVerifyError();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { hash } = useLocation();
  const [token] = useState(() => (hash.length > 1 ? hash.slice(1) : ''));
  const [state, setState] = useState<State>(() => (verifyEmailRequest.shape.token.safeParse(token).success ? { status: 'checking' } : { status: 'missing' }));
  const sent = useRef(false);

  useEffect(() => {
    if (hash) void navigate(VERIFY_PATH, { replace: true });
  }, [hash, navigate]);

  useEffect(() => {
    if (state.status !== 'checking' || sent.current) return;
    sent.current = true;
    api('verifyEmail', { body: { token } }).then(
      () => {
        setState({ status: 'done' });
        void queryClient.invalidateQueries({ queryKey: authKeys.me() });
      },
      (err: unknown) => setState({ status: 'failed', message: describe(err) }),
    );
  }, [state.status, token, queryClient, describe]);

  const home = (
    <Link to="/" className={textLinkClasses}>
      {t('page.home')}
    </Link>
  );
  return (
    <AuthCard title={t('page.title')}>
      <div role="status">
        {state.status === 'checking' && <p className="text-fg-muted">{t('page.checking')}</p>}
        {state.status === 'done' && (
          <Alert tone="success">
            <p className="font-medium">{t('page.done')}</p>
            <p>{home}</p>
          </Alert>
        )}
      </div>
      {(state.status === 'failed' || state.status === 'missing') && (
        <Alert tone="error">
          <p className="font-medium">{state.status === 'missing' ? t('page.missing') : (state.message ?? t('page.failed'))}</p>
          <p>{t('page.failedHint')}</p>
          <p>{home}</p>
        </Alert>
      )}
    </AuthCard>
  );
}
