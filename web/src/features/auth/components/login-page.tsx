import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { toast } from '../../../lib/toast';
import { loginRequest } from '@app/shared/schemas/auth';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { PasswordField } from '../../../components/ui/password-field';
import { TextField } from '../../../components/ui/text-field';
import { ApiError, describeError } from '../../../lib/api';
import { formatCountdown } from '../../../lib/format';
import { returnPath } from '../../../lib/return-to';
import { hasErrors, validateField, type FieldErrors } from '../../../lib/validation';
import { useLogin } from '../api/login';
import { useCountdown } from '../hooks/use-countdown';
import { useFieldRefs } from '../hooks/use-field-refs';
import { AuthCard, textLinkClasses } from './auth-card';

type Field = 'email' | 'password';
const FIELDS: readonly Field[] = ['email', 'password'];

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const login = useLogin();
  const [values, setValues] = useState<Record<Field, string>>({ email: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const { register, focusFirst } = useFieldRefs<Field>();
  // Too many attempts from this address: when it may try again.
  const [limitedUntil, setLimitedUntil] = useState<number | null>(null);
  const secondsLeft = useCountdown(limitedUntil);

  const change = (field: Field) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (login.isPending) return;
    const next: FieldErrors<Field> = {
      email: validateField('email', loginRequest.shape.email, values.email),
      password: validateField('password', loginRequest.shape.password, values.password),
    };
    setErrors(next);
    if (hasErrors(next)) return focusFirst(FIELDS, next);
    login.mutate(
      { email: values.email.trim(), password: values.password },
      {
        onSuccess: ({ user }) => {
          toast.success(t('login.success', { name: user.name }));
          void navigate(returnPath(location.state), { replace: true });
        },
        onError: (error) => {
          const wait = error instanceof ApiError && error.status === 429 ? (error.secondsLeft ?? 0) : 0;
          setLimitedUntil(wait > 0 ? Date.now() + wait * 1000 : null);
          toast.error(t('login.toastTitle'), { description: describeError(error) ?? t('login.toastHint') });
        },
      },
    );
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
      <form noValidate onSubmit={submit} className="space-y-5">
        {login.isError && (
          <Alert tone="error">
            <p>{describeError(login.error) ?? t('login.error')}</p>
            {secondsLeft > 0 && <p>{t('login.wait', { time: formatCountdown(secondsLeft) })}</p>}
          </Alert>
        )}
        <TextField
          ref={register('email')}
          label={t('login.email')}
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          required
          value={values.email}
          onChange={(e) => change('email')(e.target.value)}
          error={errors.email}
        />
        <div className="space-y-2">
          <PasswordField
            ref={register('password')}
            label={t('login.password')}
            name="password"
            autoComplete="current-password"
            required
            value={values.password}
            onChange={(e) => change('password')(e.target.value)}
            error={errors.password}
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
    </AuthCard>
  );
}
