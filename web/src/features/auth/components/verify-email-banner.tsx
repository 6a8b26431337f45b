import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { api } from '../../../lib/api';
import { useDescribeVerifyError, useVerifyEmailT } from '../verify-email-i18n';

/**
 * Shown to a signed-in user until their address is verified: where the link went, and Send the
 * link again (limited by the server; its refusal shows here).
 */
export default function VerifyEmailBanner({ email }: { email: string }) {
  const t = useVerifyEmailT();
  const describe = useDescribeVerifyError();
  const [state, setState] = useState<{ sending: boolean; note?: string | undefined }>({ sending: false });
  const resend = () => {
    if (state.sending) return;
    setState({ sending: true });
    api('resendVerification').then(
      () => setState({ sending: false, note: t('banner.sent', { email }) }),
      (err: unknown) => setState({ sending: false, note: describe(err) }),
    );
  };
  return (
    <section aria-label={t('banner.text', { email })} className="border-b border-amber-300 bg-warning-soft px-4 py-2 text-sm text-warning-soft-fg dark:border-amber-800">
      <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-center gap-x-3 gap-y-1 text-center">
        <p>{t('banner.text', { email })}</p>
        <Button variant="ghost" size="sm" onClick={resend} loading={state.sending}>
          {state.sending ? t('banner.sending') : t('banner.resend')}
        </Button>
        <p role="status" className="empty:hidden">
          {state.note}
        </p>
      </div>
    </section>
  );
}
