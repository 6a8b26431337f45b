import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { toast } from '../../../lib/toast';
import { PASSWORD_MIN } from '@app/shared/constants';
import { registerRequest } from '@app/shared/schemas/auth';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { PasswordField } from '../../../components/ui/password-field';
import { RichText } from '../../../components/ui/rich-text';
import { TextField } from '../../../components/ui/text-field';
import { ApiError, describeError } from '../../../lib/api';
import { preloadCaptcha } from '../../../lib/captcha';
import { currentUiLanguage } from '../../../lib/i18n';
import { hasErrors, validateField, type FieldErrors } from '../../../lib/validation';
import { useRegister } from '../api/register';
import { useFieldRefs } from '../hooks/use-field-refs';
import { AuthCard, textLinkClasses } from './auth-card';

type Field = 'name' | 'email' | 'password';
const FIELDS: readonly Field[] = ['name', 'email', 'password'];

export default function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const registration = useRegister();
  const [values, setValues] = useState<Record<Field, string>>({ name: '', email: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [terms, setTerms] = useState(false);
  const [termsError, setTermsError] = useState(false);
  const { register, focusFirst } = useFieldRefs<Field>();
  const termsId = useId();

  useEffect(preloadCaptcha, []);

  const change = (field: Field) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (registration.isPending) return;
    const next: FieldErrors<Field> = {
      name: validateField('name', registerRequest.shape.name, values.name),
      email: validateField('email', registerRequest.shape.email, values.email),
      password: validateField('newPassword', registerRequest.shape.password, values.password),
    };
    setErrors(next);
    if (hasErrors(next)) return focusFirst(FIELDS, next);
    if (!terms) {
      setTermsError(true);
      toast.error(t('register.termsTitle'), { description: t('register.termsDescription') });
      document.getElementById(termsId)?.focus();
      return;
    }
    registration.mutate(
      { name: values.name.trim(), email: values.email.trim(), password: values.password, language: currentUiLanguage() },
      {
        onSuccess: () => {
          toast.success(t('register.success'));
          void navigate('/');
        },
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'email_taken') setErrors((e) => ({ ...e, email: describeError(error) }));
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
      <form noValidate onSubmit={submit} className="space-y-5">
        {registration.isError && (
          <Alert tone="error">
            <p>{describeError(registration.error) ?? t('register.error')}</p>
          </Alert>
        )}
        <TextField
          ref={register('name')}
          label={t('register.name')}
          name="name"
          autoComplete="name"
          required
          value={values.name}
          onChange={(e) => change('name')(e.target.value)}
          error={errors.name}
        />
        <TextField
          ref={register('email')}
          label={t('register.email')}
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          required
          value={values.email}
          onChange={(e) => change('email')(e.target.value)}
          error={errors.email}
        />
        <PasswordField
          ref={register('password')}
          label={t('register.password')}
          name="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN}
          value={values.password}
          onChange={(e) => change('password')(e.target.value)}
          hint={t('register.passwordHint', { min: PASSWORD_MIN })}
          error={errors.password}
        />
        <div className="space-y-1.5">
          <div className="flex items-start gap-3">
            <input
              id={termsId}
              type="checkbox"
              name="terms"
              checked={terms}
              onChange={(e) => {
                setTerms(e.target.checked);
                setTermsError(false);
              }}
              aria-invalid={termsError || undefined}
              aria-describedby={termsError ? `${termsId}-error` : undefined}
              className="mt-0.5 size-5 shrink-0 rounded border-slate-400 accent-indigo-600"
            />
            <label htmlFor={termsId} className="text-sm text-slate-800 dark:text-slate-200">
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
            <p id={`${termsId}-error`} className="text-sm font-medium text-red-700 dark:text-red-400">
              {t('validation.termsRequired')}
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
