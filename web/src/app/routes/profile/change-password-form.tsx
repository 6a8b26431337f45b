import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN } from '@app/shared/constants';
import { changePasswordRequest, type ChangePasswordRequest } from '@app/shared/schemas/auth';
import { Button } from '../../../components/ui/button';
import { PasswordField } from '../../../components/ui/password-field';
import { ApiError, describeError } from '../../../lib/api';
import { i18n } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { fieldCopy, useSchemaForm, type FieldCopy } from '../../../lib/validation';
import { useChangePassword } from './api/change-password';
import { Section } from './section';

const currentCopy: FieldCopy = (_code, blank) => (blank ? i18n.t('validation.passwordRequired') : undefined);
const copy = { currentPassword: currentCopy, newPassword: fieldCopy.password };

/** Which field a refusal of the server is about. */
const NEW_PASSWORD_CODES = new Set(['password_weak', 'password_breached']);

/**
 * The current password and a new one (length checked here; strength and breaches by the server,
 * whose refusal shows on the field in the UI language). Success keeps this device signed in.
 */
export function ChangePasswordForm({ email }: { email: string }) {
  const { t } = useTranslation();
  const change = useChangePassword();
  const [visible, setVisible] = useState(false);
  const { field, handleSubmit, reset, setError, setFocus } = useSchemaForm(changePasswordRequest, copy, {
    defaultValues: { currentPassword: '', newPassword: '' },
  });

  const submit = (body: ChangePasswordRequest) => {
    if (change.isPending) return;
    change.mutate(body, {
      onSuccess: () => {
        reset();
        setVisible(false);
        toast.success(t('profile.password.changed'), { description: t('profile.password.changedDescription') });
      },
      onError: (error) => {
        const message = describeError(error);
        if (error instanceof ApiError && error.code === 'wrong_current_password') {
          setError('currentPassword', { message });
          setFocus('currentPassword');
        } else if (error instanceof ApiError && error.code && NEW_PASSWORD_CODES.has(error.code)) {
          setError('newPassword', { message });
          setFocus('newPassword');
        } else {
          toast.error(t('profile.password.error'), { description: message ?? t('profile.saveErrorDescription') });
        }
      },
    });
  };

  return (
    <Section title={t('profile.password.title')} description={t('profile.password.description')}>
      <form noValidate onSubmit={handleSubmit(submit)} className="space-y-5">
        {/* Lets password managers file the new password under the account. */}
        <input type="email" name="username" autoComplete="username" value={email} hidden readOnly />
        <PasswordField
          {...field('currentPassword')}
          label={t('profile.password.current')}
          autoComplete="current-password"
          visible={visible}
          onVisibleChange={setVisible}
          required
        />
        <PasswordField
          {...field('newPassword')}
          label={t('profile.password.new')}
          autoComplete="new-password"
          visible={visible}
          toggle={false}
          required
          minLength={PASSWORD_MIN}
          hint={t('profile.password.hint', { min: PASSWORD_MIN })}
        />
        <div className="flex justify-end">
          <Button type="submit" loading={change.isPending}>
            {change.isPending ? t('profile.password.submitting') : t('profile.password.submit')}
          </Button>
        </div>
      </form>
    </Section>
  );
}
