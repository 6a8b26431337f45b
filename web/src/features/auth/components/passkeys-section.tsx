import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PASSKEY_NAME_MAX } from '@app/shared/constants';
import type { Passkey } from '@app/shared/schemas/passkeys';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { PasswordField } from '../../../components/ui/password-field';
import { TextField } from '../../../components/ui/text-field';
import { ApiError } from '../../../lib/api';
import { formatDate } from '../../../lib/format';
import { passkeysSupported } from '../../../lib/passkey-prompt';
import { toast } from '../../../lib/toast';
import { download } from '../../../lib/transcript-export';
import { usePasskeyActions, usePasskeys } from '../api/passkeys';
import { useDescribePasskeyError, usePasskeysT } from '../passkeys-i18n';

const needsPassword = (error: unknown) => error instanceof ApiError && error.code === 'reauth_required';

/**
 * The profile's Passkeys section: add one (named), the list (name, added, last used; remove after
 * a confirmation), the switch that makes sign-in ask for a passkey after the password, and the
 * recovery codes (how many are left; new ones, shown once with copy and download). Adding, the
 * switch and new codes need a recent sign-in: otherwise the server asks for the password, and a
 * password field appears.
 */
export default function PasskeysSection() {
  const t = usePasskeysT();
  const { i18n } = useTranslation();
  const describe = useDescribePasskeyError();
  const headingId = useId();
  const list = usePasskeys();
  const { add, remove, setRequired, regenerate } = usePasskeyActions();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [askPassword, setAskPassword] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const [error, setError] = useState<unknown>(null);
  const supported = passkeysSupported();
  const currentPassword = askPassword && password ? password : undefined;

  const failed = (err: unknown) => {
    if (needsPassword(err)) setAskPassword(true);
    setError(err);
  };
  const succeeded = () => {
    setError(null);
    setAskPassword(false);
    setPassword('');
  };

  const submitAdd = (event: FormEvent) => {
    event.preventDefault();
    if (add.isPending || name.trim() === '') return;
    add.mutate(
      { name: name.trim(), currentPassword },
      {
        onSuccess: (out) => {
          succeeded();
          setName('');
          if (out.recoveryCodes) setCodes(out.recoveryCodes);
          toast.success(t('section.added'));
        },
        onError: failed,
      },
    );
  };

  const toggleRequired = (required: boolean) => {
    if (setRequired.isPending) return;
    setRequired.mutate(
      { required, currentPassword },
      {
        onSuccess: (out) => {
          succeeded();
          toast.success(t(out.required ? 'section.requireOn' : 'section.requireOff'));
        },
        onError: failed,
      },
    );
  };

  const regenerateCodes = () => {
    if (regenerate.isPending) return;
    regenerate.mutate({ currentPassword }, { onSuccess: (out) => (succeeded(), setCodes(out.recoveryCodes)), onError: failed });
  };

  const confirmRemove = () => {
    if (!removing || remove.isPending) return;
    remove.mutate(removing.id, {
      onSuccess: () => {
        setRemoving(null);
        toast.success(t('section.removed'));
      },
      onError: (err) => {
        setRemoving(null);
        failed(err);
      },
    });
  };

  const data = list.data;
  const hasPasskeys = (data?.passkeys.length ?? 0) > 0;

  let body: ReactNode;
  if (list.isError) body = <Alert tone="error">{t('section.loadError')}</Alert>;
  else if (!data) body = null;
  else
    body = (
      <div className="space-y-6">
        {error != null && <Alert tone="error">{describe(error)}</Alert>}
        {askPassword && (
          <PasswordField
            label={t('section.password')}
            hint={t('section.passwordHint')}
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        )}
        {codes && <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />}
        {data.passkeys.length === 0 ? (
          <p className="text-sm text-fg-muted">{t('section.none')}</p>
        ) : (
          <ul aria-label={t('section.listLabel')} className="divide-y divide-border rounded-lg border border-border">
            {data.passkeys.map((p) => (
              <li key={p.id} className="flex flex-wrap items-center justify-between gap-3 p-3">
                <div className="min-w-0">
                  <p className="font-medium text-fg">
                    {p.name}
                    {p.backedUp && <span className="ml-2 rounded bg-surface-muted px-1.5 py-0.5 text-xs text-fg-muted">{t('section.synced')}</span>}
                  </p>
                  <p className="text-sm text-fg-muted">
                    {t('section.created', { date: formatDate(p.createdAt, i18n.language) })} ·{' '}
                    {p.lastUsedAt ? t('section.lastUsed', { date: formatDate(p.lastUsedAt, i18n.language) }) : t('section.neverUsed')}
                  </p>
                </div>
                <Button variant="secondary" size="sm" aria-label={t('section.removeLabel', { name: p.name })} onClick={() => setRemoving(p)}>
                  {t('section.remove')}
                </Button>
              </li>
            ))}
          </ul>
        )}
        {supported ? (
          <form noValidate onSubmit={submitAdd} className="flex flex-wrap items-end gap-3">
            <TextField
              className="min-w-48 flex-1"
              label={t('section.name')}
              hint={t('section.nameHint')}
              value={name}
              maxLength={PASSKEY_NAME_MAX}
              onChange={(e) => setName(e.target.value)}
              required
            />
            <Button type="submit" loading={add.isPending} disabled={name.trim() === ''}>
              {add.isPending ? t('section.adding') : t('section.add')}
            </Button>
          </form>
        ) : (
          <Alert tone="warning" live={false}>
            {t('section.unsupported')}
          </Alert>
        )}
        <div className="space-y-1">
          <label className="flex items-center gap-3 text-sm font-medium text-fg">
            <input
              type="checkbox"
              className="size-4"
              // While the switch is being saved, it shows what was asked.
              checked={setRequired.isPending && setRequired.variables ? setRequired.variables.required : data.required}
              disabled={!hasPasskeys || setRequired.isPending}
              onChange={(e) => toggleRequired(e.target.checked)}
            />
            {t('section.require')}
          </label>
          <p className="text-sm text-fg-muted">{hasPasskeys ? t('section.requireHint') : t('section.requireNeedsPasskey')}</p>
        </div>
        {hasPasskeys && (
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-fg">{t('section.codesLeft', { count: data.recoveryCodesLeft })}</p>
            <Button variant="secondary" onClick={regenerateCodes} loading={regenerate.isPending}>
              {regenerate.isPending ? t('section.regenerating') : t('section.regenerate')}
            </Button>
          </div>
        )}
      </div>
    );

  return (
    <section aria-labelledby={headingId}>
      <Card>
        <h2 id={headingId} className="text-lg font-semibold text-fg">
          {t('section.title')}
        </h2>
        <p className="mt-1 text-sm text-fg-muted">{t('section.description')}</p>
        <div className="mt-5">{body}</div>
      </Card>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={t('section.removeTitle', { name: removing?.name ?? '' })}
        description={t('section.removeText')}
        confirmLabel={t('section.removeConfirm')}
        pendingLabel={t('section.removing')}
        cancelLabel={t('section.cancel')}
        pending={remove.isPending}
        onConfirm={confirmRemove}
      />
    </section>
  );
}

/** The recovery codes just made, shown this once: copy, download, and a button that hides them. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const t = usePasskeysT();
  const headingId = useId();
  const text = `${t('codes.fileHeader')}\n\n${codes.join('\n')}\n`;
  const copy = () =>
    void navigator.clipboard.writeText(codes.join('\n')).then(
      () => toast.success(t('codes.copied')),
      () => undefined,
    );
  return (
    <div role="region" aria-labelledby={headingId} className="space-y-3 rounded-lg border border-primary-line bg-surface-muted p-4">
      <h3 id={headingId} className="font-semibold text-fg">
        {t('codes.title')}
      </h3>
      <p className="text-sm text-fg-muted">{t('codes.text')}</p>
      <ol aria-label={t('codes.listLabel')} className="grid grid-cols-2 gap-x-6 gap-y-1 font-mono text-sm text-fg">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" onClick={copy}>
          {t('codes.copy')}
        </Button>
        <Button variant="secondary" size="sm" onClick={() => download(new Blob([text], { type: 'text/plain' }), 'live-transcribe-recovery-codes.txt')}>
          {t('codes.download')}
        </Button>
        <Button size="sm" onClick={onDone}>
          {t('codes.done')}
        </Button>
      </div>
    </div>
  );
}
