import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from '../../../lib/toast';
import { forgotPasswordRequest } from '@app/shared/schemas/auth';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { EmailField } from '../../../components/ui/text-field';
import { ApiError, describeError } from '../../../lib/api';
import { preloadCaptcha } from '../../../lib/captcha';
import { formatCountdown } from '../../../lib/format';
import { currentUiLanguage } from '../../../lib/i18n';
import { fieldCopy, useSchemaForm } from '../../../lib/validation';
import { useForgotPassword } from '../api/forgot-password';
import { useCountdown } from '../hooks/use-countdown';
import { AuthCard, textLinkClasses } from './auth-card';

type Status = 'idle' | 'sending' | 'success' | 'error' | 'rate-limited';

const forgotForm = forgotPasswordRequest.pick({ email: true });

export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const request = useForgotPassword();
  const { field, handleSubmit } = useSchemaForm(forgotForm, fieldCopy, { defaultValues: { email: '' } });
  const [status, setStatus] = useState<Status>('idle');
  const [failure, setFailure] = useState<unknown>(null);
  const [limitedUntil, setLimitedUntil] = useState<number | null>(null);
  const secondsLeft = useCountdown(limitedUntil);

  useEffect(preloadCaptcha, []);

  // The limit is over: back to idle, the button works again.
  useEffect(() => {
    if (limitedUntil !== null && secondsLeft <= 0) {
      setLimitedUntil(null);
      setStatus('idle');
    }
  }, [limitedUntil, secondsLeft]);

  // Editing the email clears the limit (the limit is per email) and any old message.
  const changeEmail = () => {
    if (status !== 'sending') {
      setLimitedUntil(null);
      setStatus('idle');
    }
  };

  const submit = ({ email }: { email: string }) => {
    if (status === 'sending' || status === 'rate-limited') return;
    setStatus('sending');
    request.mutate(
      { email, language: currentUiLanguage() },
      {
        onSuccess: () => setStatus('success'),
        onError: (err) => {
          if (err instanceof ApiError && err.status === 429 && err.secondsLeft !== undefined && err.secondsLeft > 0) {
            setLimitedUntil(Date.now() + err.secondsLeft * 1000);
            setStatus('rate-limited');
            return;
          }
          setFailure(err);
          setStatus('error');
          toast.error(t('forgot.error'), { description: describeError(err) ?? t('forgot.failed') });
        },
      },
    );
  };

  return (
    <AuthCard
      title={t('forgot.title')}
      subtitle={t('forgot.subtitle')}
      footer={
        <Link to="/login" className={textLinkClasses}>
          {t('forgot.backToLogin')}
        </Link>
      }
    >
      <form noValidate onSubmit={handleSubmit(submit)} className="space-y-5">
        {status === 'success' && (
          <Alert tone="success">
            <p>{t('forgot.success')}</p>
          </Alert>
        )}
        {status === 'error' && (
          <Alert tone="error">
            <p className="font-medium">{t('forgot.error')}</p>
            <p>{describeError(failure) ?? t('forgot.failed')}</p>
          </Alert>
        )}
        {status === 'rate-limited' && (
          // Only the first line is announced; the countdown changes every second.
          <Alert tone="warning" live={false}>
            <p role="alert" className="font-medium">
              {t('forgot.limited')}
            </p>
            <p>{t('forgot.wait', { time: formatCountdown(secondsLeft) })}</p>
          </Alert>
        )}
        <EmailField {...field('email', { onChange: changeEmail })} label={t('forgot.email')} />
        <Button type="submit" size="lg" className="w-full" loading={status === 'sending'} disabled={status === 'rate-limited'}>
          {status === 'sending' ? t('forgot.submitting') : t('forgot.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
