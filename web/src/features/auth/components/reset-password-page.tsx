import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { toast } from '../../../lib/toast';
import { PASSWORD_MIN, RESET_REDIRECT_MS } from '@app/shared/constants';
import { resetPasswordRequest } from '@app/shared/schemas/auth';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { PasswordField } from '../../../components/ui/password-field';
import { ApiError, describeError } from '../../../lib/api';
import { hasErrors, validateField, type FieldErrors } from '../../../lib/validation';
import { useResetPassword } from '../api/reset-password';
import { useFieldRefs } from '../hooks/use-field-refs';
import { forgetResetToken, heldResetToken, holdResetToken, RESET_PATH, sendNoReferrer } from '../lib/reset-link';
import { AuthCard, textLinkClasses } from './auth-card';

type Field = 'password' | 'confirm';
const FIELDS: readonly Field[] = ['password', 'confirm'];

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
  const [values, setValues] = useState<Record<Field, string>>({ password: '', confirm: '' });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const { register, focusFirst } = useFieldRefs<Field>();
  const wellFormed = resetPasswordRequest.shape.token.safeParse(token).success;
  const timer = useRef<number | undefined>(undefined);
  const [visible, setVisible] = useState(false);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const change = (field: Field) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reset.isPending || reset.isSuccess) return;
    const next: FieldErrors<Field> = {
      password: validateField('newPassword', resetPasswordRequest.shape.newPassword, values.password),
      confirm: values.confirm !== values.password ? t('validation.passwordMismatch') : undefined,
    };
    setErrors(next);
    if (hasErrors(next)) return focusFirst(FIELDS, next);
    reset.mutate(
      { token, newPassword: values.password },
      {
        onSuccess: () => {
          forgetResetToken();
          timer.current = window.setTimeout(() => void navigate('/login'), RESET_REDIRECT_MS);
        },
        onError: (error) => {
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
        <form noValidate onSubmit={submit} className="space-y-5">
          {reset.isError && (
            <Alert tone="error">
              <p className="font-medium">{t('reset.error')}</p>
              <p>{describeError(reset.error) ?? t('reset.failed')}</p>
              {isInvalidLink(reset.error) && <p>{requestNewLink}</p>}
            </Alert>
          )}
          <PasswordField
            ref={register('password')}
            label={t('reset.password')}
            name="new-password"
            autoComplete="new-password"
            visible={visible}
            onVisibleChange={setVisible}
            required
            minLength={PASSWORD_MIN}
            value={values.password}
            onChange={(e) => change('password')(e.target.value)}
            hint={t('reset.hint', { min: PASSWORD_MIN })}
            error={errors.password}
          />
          <PasswordField
            ref={register('confirm')}
            label={t('reset.confirm')}
            name="confirm-password"
            autoComplete="new-password"
            visible={visible}
            toggle={false}
            required
            value={values.confirm}
            onChange={(e) => change('confirm')(e.target.value)}
            error={errors.confirm}
          />
          <Button type="submit" size="lg" className="w-full" loading={reset.isPending}>
            {reset.isPending ? t('reset.submitting') : t('reset.submit')}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
