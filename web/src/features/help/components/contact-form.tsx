import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast';
import { SUPPORT_RESPONSE_HOURS } from '@app/shared/constants';
import { CONTACT_MESSAGE_MAX, CONTACT_SUBJECT_MAX, contactRequest, type ContactRequest } from '@app/shared/schemas/site';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { EmailField, TextAreaField, TextField } from '../../../components/ui/text-field';
import { ApiError } from '../../../lib/api';
import { useUser } from '../../../lib/auth';
import { formatCountdown } from '../../../lib/format';
import { i18n } from '../../../lib/i18n';
import { fieldCopy, type FieldCopy, useSchemaForm } from '../../../lib/validation';
import { useSendContact } from '../api/send-contact';

const EMPTY: ContactRequest = { name: '', email: '', subject: '', message: '' };
const contactCopy: Record<keyof ContactRequest, FieldCopy> = {
  name: fieldCopy.name,
  email: fieldCopy.email,
  subject: (code) =>
    code === 'too_big' ? i18n.t('help.contact.subjectTooLong', { max: CONTACT_SUBJECT_MAX }) : i18n.t('help.contact.subjectRequired'),
  message: (code) =>
    code === 'too_big' ? i18n.t('help.contact.messageTooLong', { max: CONTACT_MESSAGE_MAX }) : i18n.t('help.contact.messageRequired'),
};

/**
 * The help page's contact form. Every field is required; a signed-in user's name and email
 * come from the account and are locked. Success clears the form (keeping the locked fields).
 */
export function ContactForm() {
  const { t } = useTranslation();
  const user = useUser();
  const send = useSendContact();
  const { field, handleSubmit, reset, setValue } = useSchemaForm(contactRequest, contactCopy, { defaultValues: EMPTY });
  const [limitedFor, setLimitedFor] = useState<number | null>(null);

  // Signed in: name and email are the account's (and follow it if it loads later).
  const locked = user !== null;
  const name = user?.name;
  const email = user?.email;
  useEffect(() => {
    if (name === undefined || email === undefined) return;
    setValue('name', name);
    setValue('email', email);
  }, [name, email, setValue]);

  const submit = (contact: ContactRequest) => {
    if (send.isPending) return;
    setLimitedFor(null);
    send.mutate(contact, {
      onSuccess: () => {
        reset(user ? { ...EMPTY, name: user.name, email: user.email } : EMPTY);
        toast.success(t('help.contact.success'), { description: t('help.contact.successDescription', { hours: SUPPORT_RESPONSE_HOURS }) });
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 429) {
          const wait = t('help.contact.limited', { time: formatCountdown(error.secondsLeft ?? 60) });
          setLimitedFor(error.secondsLeft ?? 60);
          toast.error(t('help.contact.errorTitle'), { description: wait });
        } else {
          toast.error(t('help.contact.errorTitle'), { description: t('help.contact.errorDescription') });
        }
      },
    });
  };

  const lockedHint = locked ? t('help.contact.lockedHint') : undefined;
  return (
    <form noValidate onSubmit={handleSubmit(submit)} className="space-y-5">
      {limitedFor !== null && (
        <Alert tone="warning">
          <p>{t('help.contact.limited', { time: formatCountdown(limitedFor) })}</p>
        </Alert>
      )}
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField {...field('name')} label={t('help.contact.name')} autoComplete="name" required readOnly={locked} hint={lockedHint} />
        <EmailField {...field('email')} label={t('help.contact.email')} readOnly={locked} hint={lockedHint} />
      </div>
      <TextField {...field('subject')} label={t('help.contact.subject')} required maxLength={CONTACT_SUBJECT_MAX} />
      <TextAreaField {...field('message')} label={t('help.contact.message')} required rows={6} maxLength={CONTACT_MESSAGE_MAX} />
      <Button type="submit" size="lg" loading={send.isPending} className="w-full sm:w-auto">
        {send.isPending ? t('help.contact.submitting') : t('help.contact.submit')}
      </Button>
    </form>
  );
}
