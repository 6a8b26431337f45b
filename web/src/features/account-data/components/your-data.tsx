import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Dialog } from '../../../components/ui/dialog';
import { PasswordField } from '../../../components/ui/password-field';
import { api, ApiError, describeError } from '../../../lib/api';
import { passkeysSupported, PasskeyPromptError, promptPasskey } from '../../../lib/passkey-prompt';
import { useMutation } from '../../../lib/mutation';
import { toast } from '../../../lib/toast';
import { download } from '../../../lib/transcript-export';
import { useAccountDataT } from '../i18n';

/**
 * The profile's "Your data": Download my data (everything the account holds, read page by page
 * and zipped in the browser) and Delete my account (after the password; then `onDeleted` clears
 * this browser's data of the user and ends the session).
 */
export default function YourData({ email, onDeleted }: { email: string; onDeleted: () => Promise<void> }) {
  const t = useAccountDataT();
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <Card>
        <h2 id={headingId} className="text-lg font-semibold text-fg">
          {t('title')}
        </h2>
        <p className="mt-1 text-sm text-fg-muted">{t('intro')}</p>
        <div className="mt-5 space-y-6">
          <DownloadData />
          <DeleteAccount email={email} onDeleted={onDeleted} />
        </div>
      </Card>
    </section>
  );
}

function DownloadData() {
  const t = useAccountDataT();
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const start = async () => {
    if (busy) return;
    setBusy(true);
    setStatus(t('download.preparing'));
    try {
      // The export's code (and the ZIP library) load only when asked for.
      const [{ collectExport }, { buildExportZip }] = await Promise.all([import('../lib/collect-export'), import('../lib/export-zip')]);
      const data = await collectExport((done, total) => setStatus(t('download.progress', { done, total })));
      const { bytes, fileName } = buildExportZip(data);
      download(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/zip' }), fileName);
      setStatus(t('download.done', { file: fileName }));
    } catch (err) {
      setStatus('');
      toast.error(t('download.error'), { description: describeError(err) ?? t('download.errorDescription') });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div>
      <h3 className="font-medium text-fg">{t('download.title')}</h3>
      <p className="mt-1 text-sm text-fg-muted">{t('download.description')}</p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <Button variant="secondary" onClick={() => void start()} loading={busy}>
          {t('download.button')}
        </Button>
        <p role="status" className="text-sm text-fg-muted">
          {status}
        </p>
      </div>
    </div>
  );
}

function DeleteAccount({ email, onDeleted }: { email: string; onDeleted: () => Promise<void> }) {
  const t = useAccountDataT();
  const { t: tApp } = useTranslation();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const input = useRef<HTMLInputElement>(null);
  const remove = useMutation({
    mutationFn: async (body: { password: string } | 'passkey') => {
      if (body !== 'passkey') return api('deleteAccount', { body });
      // A passkey of the account instead of the password: a passwordless ceremony, which the server checks names this user.
      const ceremony = await api('startPasskeySignIn');
      const credential = await promptPasskey(ceremony.options);
      return api('deleteAccount', { body: { passkey: { flow: ceremony.flow, credential } } });
    },
    scope: { id: 'delete-account' },
  });
  const submit = (event: FormEvent | 'passkey') => {
    if (event !== 'passkey') event.preventDefault();
    if (remove.isPending) return;
    if (event !== 'passkey' && !password) {
      setError(tApp('validation.passwordRequired'));
      input.current?.focus();
      return;
    }
    remove.mutate(
      event === 'passkey' ? 'passkey' : { password },
      {
        onSuccess: async () => {
          setOpen(false);
          await onDeleted();
          toast.success(t('delete.deleted'), { description: t('delete.deletedDescription', { email }) });
        },
        onError: (err) => {
          const message = err instanceof PasskeyPromptError || (err instanceof ApiError && err.code === 'passkey_refused') ? t('delete.passkeyFailed') : describeError(err);
          if (err instanceof ApiError && (err.code === 'wrong_current_password' || err.status === 400 || err.status === 429)) {
            setError(message);
            input.current?.focus();
          } else toast.error(t('delete.error'), { description: message });
        },
      },
    );
  };
  const close = (next: boolean) => {
    if (remove.isPending) return;
    setOpen(next);
    if (!next) {
      setPassword('');
      setError(undefined);
    }
  };
  return (
    <div>
      <h3 className="font-medium text-fg">{t('delete.title')}</h3>
      <p className="mt-1 text-sm text-fg-muted">{t('delete.description')}</p>
      <div className="mt-3">
        <Button variant="danger" onClick={() => setOpen(true)}>
          {t('delete.button')}
        </Button>
      </div>
      <Dialog open={open} onOpenChange={close} title={t('delete.dialogTitle')} description={t('delete.dialogDescription')}>
        <form noValidate onSubmit={submit} className="mt-4 space-y-5">
          <input type="email" name="username" autoComplete="username" value={email} hidden readOnly />
          <PasswordField
            ref={input}
            label={t('delete.password')}
            autoComplete="current-password"
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
              setError(undefined);
            }}
            error={error}
            required
          />
          {passkeysSupported() && (
            <Button variant="ghost" onClick={() => submit('passkey')} disabled={remove.isPending}>
              {t('delete.usePasskey')}
            </Button>
          )}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={() => close(false)} disabled={remove.isPending}>
              {t('delete.cancel')}
            </Button>
            <Button type="submit" variant="danger" loading={remove.isPending}>
              {remove.isPending ? t('delete.deleting') : t('delete.confirm')}
            </Button>
          </div>
        </form>
      </Dialog>
    </div>
  );
}
