import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { toast } from '../../../lib/toast';
import { PASSWORD_MIN } from '@app/shared/constants';
import { registerRequest } from '@app/shared/schemas/auth';
import * as z from 'zod';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { PasswordField } from '../../../components/ui/password-field';
import { RichText } from '../../../components/ui/rich-text';
import { EmailField, TextField } from '../../../components/ui/text-field';
import { ApiError, describeError } from '../../../lib/api';
import { preloadCaptcha } from '../../../lib/captcha';
import { currentUiLanguage } from '../../../lib/i18n';
import { fieldCopy, useSchemaForm } from '../../../lib/validation';
import { useRegister } from '../api/register';
import { AuthCard, textLinkClasses } from './auth-card';

/** The account fields of the sign-up request; the terms are checked once they are valid. */
const registerForm = registerRequest.pick({ name: true, email: true, password: true }).extend({ terms: z.boolean() });

export default function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const registration = useRegister();
  const { field, handleSubmit, setError, setFocus } = useSchemaForm(registerForm, fieldCopy, {
    defaultValues: { name: '', email: '', password: '', terms: false },
  });
  const { error: termsError, ...terms } = field('terms');
  const termsId = useId();

  useEffect(preloadCaptcha, []);

  const submit = ({ terms: accepted, ...account }: z.infer<typeof registerForm>) => {
    if (registration.isPending) return;
    if (!accepted) {
      setError('terms', { message: t('validation.termsRequired') });
      toast.error(t('register.termsTitle'), { description: t('register.termsDescription') });
      setFocus('terms');
      return;
    }
    registration.mutate(
      { ...account, language: currentUiLanguage() },
      {
        onSuccess: () => {
          toast.success(t('register.success'));
          void navigate('/');
        },
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'email_taken') setError('email', { message: describeError(error) });
          if (error instanceof ApiError && (error.code === 'password_weak' || error.code === 'password_breached')) {
            setError('password', { message: describeError(error) });
          }
          toast.error(t('register.toastTitle'), { description: describeError(error) ?? t('register.toastHint') });
        },
      },
    );
  };

  return (
    <AuthCard
      title={t('register.title')}
      subtitle={t('register.subtitle')}
      footer={
        <>
          {t('register.haveAccount')}{' '}
          <Link to="/login" className={textLinkClasses}>
            {t('register.loginLink')}
          </Link>
        </>
      }
    >
      <form noValidate onSubmit={handleSubmit(submit)} className="space-y-5">
        {registration.isError && (
          <Alert tone="error">
            <p>{describeError(registration.error) ?? t('register.error')}</p>
          </Alert>
        )}
        <TextField {...field('name')} label={t('register.name')} autoComplete="name" required />
        <EmailField {...field('email')} label={t('register.email')} />
        <PasswordField
          {...field('password')}
          label={t('register.password')}
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN}
          hint={t('register.passwordHint', { min: PASSWORD_MIN })}
        />
        <div className="space-y-1.5">
          <div className="flex items-start gap-3">
            <input
              {...terms}
              id={termsId}
              type="checkbox"
              aria-invalid={termsError ? true : undefined}
              aria-describedby={termsError ? `${termsId}-error` : undefined}
              className="mt-0.5 size-5 shrink-0 rounded border-slate-400 accent-indigo-600"
            />
            <label htmlFor={termsId} className="text-sm text-fg-soft">
              <RichText
                text={t('register.terms')}
                parts={{
                  termsLink: (text) => (
                    <Link to="/terms" className={textLinkClasses}>
                      {text}
                    </Link>
                  ),
                }}
              />
            </label>
          </div>
          {termsError && (
            <p id={`${termsId}-error`} className="text-sm font-medium text-danger">
              {termsError}
            </p>
          )}
        </div>
        <Button type="submit" size="lg" className="w-full" loading={registration.isPending}>
          {registration.isPending ? t('register.submitting') : t('register.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
