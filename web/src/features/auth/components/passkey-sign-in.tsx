import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { passkeysSupported } from '../../../lib/passkey-prompt';
import type { PasskeyCeremony } from '@app/shared/schemas/passkeys';
import type { User } from '@app/shared/schemas/auth';
import { usePasskeySignIn, useRecoveryCodeSignIn } from '../api/passkey-sign-in';
import { useDescribePasskeyError, usePasskeysT } from '../passkeys-i18n';

/**
 * "Sign in with a passkey" (passwordless): the browser offers the site's passkeys, no email asked.
 * A browser without passkeys gets a line saying so instead of the button.
 */
export function PasskeySignInButton({ onSignedIn }: { onSignedIn: (user: User) => void }) {
  const t = usePasskeysT();
  const describe = useDescribePasskeyError();
  const signIn = usePasskeySignIn();
  const [supported] = useState(passkeysSupported);
  if (!supported) return <p className="text-center text-sm text-fg-muted">{t('signIn.unsupported')}</p>;
  return (
    <div className="space-y-3">
      {signIn.isError && <Alert tone="error">{describe(signIn.error)}</Alert>}
      <Button
        variant="secondary"
        size="lg"
        className="w-full"
        loading={signIn.isPending}
        onClick={() => !signIn.isPending && signIn.mutate(undefined, { onSuccess: ({ user }) => onSignedIn(user) })}
      >
        {signIn.isPending ? t('signIn.working') : t('signIn.button')}
      </Button>
    </div>
  );
}

/**
 * A password sign-in's second step, for an account that requires a passkey: the passkey, or a
 * recovery code when it is lost. Back returns to the password form.
 */
export function SecondFactorStep({ step, onSignedIn, onBack }: { step: PasskeyCeremony; onSignedIn: (user: User) => void; onBack: () => void }) {
  const t = usePasskeysT();
  const describe = useDescribePasskeyError();
  const passkey = usePasskeySignIn();
  const recovery = useRecoveryCodeSignIn();
  const [useCode, setUseCode] = useState(false);
  const [code, setCode] = useState('');
  const error = passkey.error ?? recovery.error;

  const submitCode = (event: FormEvent) => {
    event.preventDefault();
    if (recovery.isPending || code.trim() === '') return;
    recovery.mutate({ flow: step.flow, code }, { onSuccess: ({ user }) => onSignedIn(user) });
  };

  return (
    <section aria-labelledby="second-factor-title" className="space-y-5">
      <div className="space-y-1">
        <h2 id="second-factor-title" className="text-lg font-semibold text-fg">
          {t('secondFactor.title')}
        </h2>
        <p className="text-sm text-fg-muted">{t('secondFactor.text')}</p>
      </div>
      {error != null && <Alert tone="error">{describe(error)}</Alert>}
      {passkeysSupported() && (
        <Button
          size="lg"
          className="w-full"
          loading={passkey.isPending}
          onClick={() => !passkey.isPending && passkey.mutate(step, { onSuccess: ({ user }) => onSignedIn(user) })}
        >
          {passkey.isPending ? t('secondFactor.working') : t('secondFactor.usePasskey')}
        </Button>
      )}
      {useCode || !passkeysSupported() ? (
        <form noValidate onSubmit={submitCode} className="space-y-4">
          <TextField
            label={t('secondFactor.code')}
            hint={t('secondFactor.codeHint')}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoComplete="one-time-code"
            autoCapitalize="characters"
            spellCheck={false}
            required
          />
          <Button type="submit" variant="secondary" className="w-full" loading={recovery.isPending}>
            {recovery.isPending ? t('secondFactor.submittingCode') : t('secondFactor.submitCode')}
          </Button>
        </form>
      ) : (
        <Button variant="ghost" className="w-full" onClick={() => setUseCode(true)}>
          {t('secondFactor.lost')}
        </Button>
      )}
      <Button variant="ghost" className="w-full" onClick={onBack}>
        {t('secondFactor.back')}
      </Button>
    </section>
  );
}
