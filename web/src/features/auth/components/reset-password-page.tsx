import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { toast } from '../../../lib/toast';
import { PASSWORD_MIN, RESET_REDIRECT_MS } from '@app/shared/constants';
import { resetPasswordRequest } from '@app/shared/schemas/auth';
import * as z from 'zod';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { PasswordField } from '../../../components/ui/password-field';
import { ApiError, describeError } from '../../../lib/api';
import { i18n } from '../../../lib/i18n';
import { fieldCopy, useSchemaForm } from '../../../lib/validation';
import { useResetPassword } from '../api/reset-password';
import { forgetResetToken, heldResetToken, holdResetToken, RESET_PATH, sendNoReferrer } from '../lib/reset-link';
import { AuthCard, textLinkClasses } from './auth-card';

/** The new password of the reset request, typed twice. */
const resetForm = resetPasswordRequest
  .pick({ newPassword: true })
  .extend({ confirm: z.string() })
  .refine((v) => v.confirm === v.newPassword, { path: ['confirm'] });
const resetCopy = { newPassword: fieldCopy.password, confirm: () => i18n.t('validation.passwordMismatch') };

/** A link with a token of the wrong shape, or one the server refused. */
const isInvalidLink = (error: unknown) =>
  error instanceof ApiError && (error.code === 'reset_invalid' || (error.code === 'invalid_input' && error.status === 400));

export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // The token reaches the page in memory (moved out of the address at start-up), or, when
  // the app navigated here itself, in the address, which is then cleared at once.
  const { token: inPath } = useParams();
  const { hash } = useLocation();
  const inUrl = inPath ?? (hash.length > 1 ? hash.slice(1) : undefined);
  const [token] = useState(() => {
    if (inUrl !== undefined) holdResetToken(inUrl);
    return heldResetToken() ?? '';
  });
  useEffect(() => {
    if (inUrl !== undefined) void navigate(RESET_PATH, { replace: true });
  }, [inUrl, navigate]);
  useEffect(sendNoReferrer, []);
  const reset = useResetPassword();
  const { field, handleSubmit, setError } = useSchemaForm(resetForm, resetCopy, { defaultValues: { newPassword: '', confirm: '' } });
  const wellFormed = resetPasswordRequest.shape.token.safeParse(token).success;
  const timer = useRef<number | undefined>(undefined);
  const [visible, setVisible] = useState(false);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const submit = ({ newPassword }: z.infer<typeof resetForm>) => {
    if (reset.isPending || reset.isSuccess) return;
    reset.mutate(
      { token, newPassword },
      {
        onSuccess: () => {
          forgetResetToken();
          timer.current = window.setTimeout(() => void navigate('/login'), RESET_REDIRECT_MS);
        },
        onError: (error) => {
          if (error instanceof ApiError && (error.code === 'password_weak' || error.code === 'password_breached')) {
            setError('newPassword', { message: describeError(error) });
          }
          toast.error(t('reset.error'), { description: describeError(error) ?? t('reset.failed') });
        },
      },
    );
  };

  const requestNewLink = (
    <Link to="/forgot-password" className={textLinkClasses}>
      {t('reset.requestNew')}
    </Link>
  );

  if (!wellFormed) {
    return (
      <AuthCard title={t('reset.title')}>
        <Alert tone="error">
          <p>{t('errors.codes.reset_invalid')}</p>
          <p>{requestNewLink}</p>
        </Alert>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('reset.title')} subtitle={t('reset.subtitle')}>
      {reset.isSuccess ? (
        <Alert tone="success">
          <p className="font-medium">{t('reset.success')}</p>
          <p>{t('reset.redirecting')}</p>
        </Alert>
      ) : (
        <form noValidate onSubmit={handleSubmit(submit)} className="space-y-5">
          {reset.isError && (
            <Alert tone="error">
              <p className="font-medium">{t('reset.error')}</p>
              <p>{describeError(reset.error) ?? t('reset.failed')}</p>
              {isInvalidLink(reset.error) && <p>{requestNewLink}</p>}
            </Alert>
          )}
          <PasswordField
            {...field('newPassword')}
            label={t('reset.password')}
            autoComplete="new-password"
            visible={visible}
            onVisibleChange={setVisible}
            required
            minLength={PASSWORD_MIN}
            hint={t('reset.hint', { min: PASSWORD_MIN })}
          />
          <PasswordField
            {...field('confirm')}
            label={t('reset.confirm')}
            autoComplete="new-password"
            visible={visible}
            toggle={false}
            required
          />
          <Button type="submit" size="lg" className="w-full" loading={reset.isPending}>
            {reset.isPending ? t('reset.submitting') : t('reset.submit')}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
