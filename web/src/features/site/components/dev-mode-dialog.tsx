import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { PasswordField } from '../../../components/ui/password-field';
import { ApiError } from '../../../lib/api';
import { formatCountdown } from '../../../lib/format';
import { useCheckDevPassword } from '../api/check-dev-password';
import { setDevBypassToken } from '../lib/dev-mode';

type Problem = { kind: 'empty' | 'wrong' | 'failed' } | { kind: 'limited'; seconds: number };

/** The Dev Mode password dialog of the maintenance page. */
export function DevModeDialog({ open, onOpenChange, onSuccess }: { open: boolean; onOpenChange: (open: boolean) => void; onSuccess: () => void }) {
  const { t } = useTranslation();
  const check = useCheckDevPassword();
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<Problem | null>(null);

  const change = (next: boolean) => {
    if (!next) {
      setPassword('');
      setProblem(null);
    }
    onOpenChange(next);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (check.isPending) return;
    if (!password) return setProblem({ kind: 'empty' });
    setProblem(null);
    check.mutate(password, {
      onSuccess: ({ success, bypassToken }) => {
        if (!success) return setProblem({ kind: 'wrong' });
        if (bypassToken) setDevBypassToken(bypassToken);
        onSuccess();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 429) setProblem({ kind: 'limited', seconds: error.secondsLeft ?? 60 });
        else if (error instanceof ApiError && error.status === 400) setProblem({ kind: 'empty' });
        else setProblem({ kind: 'failed' });
      },
    });
  };

  const message =
    problem === null
      ? undefined
      : problem.kind === 'limited'
        ? t('maintenance.limited', { time: formatCountdown(problem.seconds) })
        : t(`maintenance.${problem.kind}`);

  return (
    <Dialog open={open} onOpenChange={change} title={t('maintenance.dialogTitle')} description={t('maintenance.dialogDescription')}>
      <form noValidate onSubmit={submit} className="space-y-4">
        <PasswordField
          label={t('maintenance.password')}
          name="dev-password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            if (problem?.kind === 'empty' || problem?.kind === 'wrong') setProblem(null);
          }}
          error={problem?.kind === 'empty' || problem?.kind === 'wrong' ? message : undefined}
        />
        {(problem?.kind === 'limited' || problem?.kind === 'failed') && (
          <Alert tone="error">
            <p>{message}</p>
          </Alert>
        )}
        <Button type="submit" className="w-full" loading={check.isPending}>
          {check.isPending ? t('maintenance.submitting') : t('maintenance.submit')}
        </Button>
      </form>
    </Dialog>
  );
}
