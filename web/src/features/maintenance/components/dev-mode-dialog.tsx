import { useTranslation } from 'react-i18next';
import { checkDevPasswordRequest } from '@app/shared/schemas/site';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { PasswordField } from '../../../components/ui/password-field';
import { ApiError } from '../../../lib/api';
import { formatCountdown } from '../../../lib/format';
import { i18n } from '../../../lib/i18n';
import { useSchemaForm } from '../../../lib/validation';
import { useCheckDevPassword } from '../api/check-dev-password';
import { setDevBypassToken } from '../lib/dev-mode';

const devPasswordCopy = { password: () => i18n.t('maintenance.empty') };

/** The Dev Mode password dialog of the maintenance page. Loaded on demand. */
export default function DevModeDialog({ open, onOpenChange, onSuccess }: { open: boolean; onOpenChange: (open: boolean) => void; onSuccess: () => void }) {
  const { t } = useTranslation();
  const check = useCheckDevPassword();
  // A wrong or missing password shows on the field; a refused check (rate limit, failure) above the button until the next submit.
  const { field, handleSubmit, setError, formState } = useSchemaForm(checkDevPasswordRequest, devPasswordCopy, {
    defaultValues: { password: '' },
    focusError: false,
  });

  const submit = ({ password }: { password: string }) => {
    if (check.isPending) return;
    check.mutate(password, {
      onSuccess: ({ success, bypassToken }) => {
        if (!success) return setError('password', { message: t('maintenance.wrong') });
        if (bypassToken) setDevBypassToken(bypassToken);
        onSuccess();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 429) {
          setError('root', { message: t('maintenance.limited', { time: formatCountdown(error.secondsLeft ?? 60) }) });
        } else if (error instanceof ApiError && error.status === 400) setError('password', { message: t('maintenance.empty') });
        else setError('root', { message: t('maintenance.failed') });
      },
    });
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t('maintenance.dialogTitle')} description={t('maintenance.dialogDescription')}>
      <form noValidate onSubmit={handleSubmit(submit)} className="space-y-4">
        <PasswordField {...field('password')} label={t('maintenance.password')} autoComplete="current-password" />
        {formState.errors.root && (
          <Alert tone="error">
            <p>{formState.errors.root.message}</p>
          </Alert>
        )}
        <Button type="submit" className="w-full" loading={check.isPending}>
          {check.isPending ? t('maintenance.submitting') : t('maintenance.submit')}
        </Button>
      </form>
    </Dialog>
  );
}
