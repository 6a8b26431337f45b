import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { toast } from '../../../lib/toast';
import { loginRequest, type LoginRequest } from '@app/shared/schemas/auth';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { PasswordField } from '../../../components/ui/password-field';
import { EmailField } from '../../../components/ui/text-field';
import { ApiError, describeError } from '../../../lib/api';
import { formatCountdown } from '../../../lib/format';
import { returnPath } from '../../../lib/return-to';
import { fieldCopy, useSchemaForm } from '../../../lib/validation';
import { useLogin } from '../api/login';
import type { PasskeyCeremony } from '@app/shared/schemas/passkeys';
import type { User } from '@app/shared/schemas/auth';
import { usePasskeysT } from '../passkeys-i18n';
import { PasskeySignInButton, SecondFactorStep } from './passkey-sign-in';
import { useCountdown } from '../hooks/use-countdown';
import { AuthCard, textLinkClasses } from './auth-card';

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const login = useLogin();
  const { field, handleSubmit } = useSchemaForm(loginRequest, fieldCopy, { defaultValues: { email: '', password: '' } });
  // Too many attempts from this address: when it may try again.
  const [limitedUntil, setLimitedUntil] = useState<number | null>(null);
  const secondsLeft = useCountdown(limitedUntil);
  const tPasskeys = usePasskeysT();
  // The account requires a passkey: the password was right, the second step is under way.
  const [secondFactor, setSecondFactor] = useState<PasskeyCeremony | null>(null);

  const signedIn = (user: User) => {
    toast.success(t('login.success', { name: user.name }));
    void navigate(returnPath(location.state), { replace: true });
  };

  const submit = (credentials: LoginRequest) => {
    if (login.isPending) return;
    login.mutate(credentials, {
      onSuccess: (out) => {
        if ('secondFactor' in out) setSecondFactor(out.secondFactor);
        else signedIn(out.user);
      },
      onError: (error) => {
        const wait = error instanceof ApiError && error.status === 429 ? (error.secondsLeft ?? 0) : 0;
        setLimitedUntil(wait > 0 ? Date.now() + wait * 1000 : null);
        toast.error(t('login.toastTitle'), { description: describeError(error) ?? t('login.toastHint') });
      },
    });
  };

  return (
    <AuthCard
      title={t('login.title')}
      subtitle={t('login.subtitle')}
      footer={
        <>
          {t('login.noAccount')}{' '}
          <Link to="/register" className={textLinkClasses}>
            {t('login.registerLink')}
          </Link>
        </>
      }
    >
      {secondFactor ? (
        <SecondFactorStep step={secondFactor} onSignedIn={signedIn} onBack={() => setSecondFactor(null)} />
      ) : (
        <>
          <form noValidate onSubmit={handleSubmit(submit)} className="space-y-5">
            {login.isError && (
              <Alert tone="error">
                <p>{describeError(login.error) ?? t('login.error')}</p>
                {secondsLeft > 0 && <p>{t('login.wait', { time: formatCountdown(secondsLeft) })}</p>}
              </Alert>
            )}
            <EmailField {...field('email')} label={t('login.email')} />
            <div className="space-y-2">
              <PasswordField
                {...field('password')}
                label={t('login.password')}
                autoComplete="current-password"
                required
              />
              <div className="text-right text-sm">
                <Link to="/forgot-password" className={textLinkClasses}>
                  {t('login.forgot')}
                </Link>
              </div>
            </div>
            <Button type="submit" size="lg" className="w-full" loading={login.isPending}>
              {login.isPending ? t('login.submitting') : t('login.submit')}
            </Button>
          </form>
          <div className="my-5 flex items-center gap-3 text-xs uppercase text-fg-muted" aria-hidden="true">
            <span className="h-px flex-1 bg-border" />
            {tPasskeys('signIn.or')}
            <span className="h-px flex-1 bg-border" />
          </div>
          <PasskeySignInButton onSignedIn={signedIn} />
        </>
      )}
    </AuthCard>
  );
}
