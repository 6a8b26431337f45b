import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast';
import { SUPPORT_RESPONSE_HOURS } from '@app/shared/constants';
import { CONTACT_MESSAGE_MAX, CONTACT_SUBJECT_MAX, contactRequest } from '@app/shared/schemas/site';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../components/ui/cn';
import { inputClasses, TextField } from '../../../components/ui/text-field';
import { ApiError } from '../../../lib/api';
import { useUser } from '../../../lib/auth';
import { formatCountdown } from '../../../lib/format';
import { hasErrors, validateField, type FieldErrors } from '../../../lib/validation';
import { useSendContact } from '../api/send-contact';

type Field = 'name' | 'email' | 'subject' | 'message';
const FIELDS: readonly Field[] = ['name', 'email', 'subject', 'message'];
const EMPTY: Record<Field, string> = { name: '', email: '', subject: '', message: '' };

/**
 * The help page's contact form. Every field is required; a signed-in user's name and email
 * come from the account and are locked. Success clears the form (keeping the locked fields).
 */
export function ContactForm() {
  const { t } = useTranslation();
  const user = useUser();
  const send = useSendContact();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [limitedFor, setLimitedFor] = useState<number | null>(null);
  const messageId = useId();

  // Signed in: name and email are the account's (and follow it if it loads later).
  const locked = user !== null;
  useEffect(() => {
    if (user) setValues((v) => ({ ...v, name: user.name, email: user.email }));
  }, [user?.name, user?.email]);

  const change = (field: Field) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const validate = (): FieldErrors<Field> => {
    const subject = values.subject.trim();
    const message = values.message.trim();
    return {
      name: validateField('name', contactRequest.shape.name, values.name),
      email: validateField('email', contactRequest.shape.email, values.email),
      subject: !subject
        ? t('help.contact.subjectRequired')
        : subject.length > CONTACT_SUBJECT_MAX
          ? t('help.contact.subjectTooLong', { max: CONTACT_SUBJECT_MAX })
          : undefined,
      message: !message
        ? t('help.contact.messageRequired')
        : message.length > CONTACT_MESSAGE_MAX
          ? t('help.contact.messageTooLong', { max: CONTACT_MESSAGE_MAX })
          : undefined,
    };
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (send.isPending) return;
    const next = validate();
    setErrors(next);
    if (hasErrors(next)) {
      const first = FIELDS.find((f) => next[f]);
      if (first) (event.currentTarget.elements.namedItem(first) as HTMLElement | null)?.focus();
      return;
    }
    setLimitedFor(null);
    send.mutate(
      { name: values.name.trim(), email: values.email.trim(), subject: values.subject.trim(), message: values.message.trim() },
      {
        onSuccess: () => {
          setValues(user ? { ...EMPTY, name: user.name, email: user.email } : EMPTY);
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
      },
    );
  };

  const lockedHint = locked ? t('help.contact.lockedHint') : undefined;
  return (
    <form noValidate onSubmit={submit} className="space-y-5">
      {limitedFor !== null && (
        <Alert tone="warning">
          <p>{t('help.contact.limited', { time: formatCountdown(limitedFor) })}</p>
        </Alert>
      )}
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label={t('help.contact.name')}
          name="name"
          autoComplete="name"
          required
          readOnly={locked}
          hint={lockedHint}
          value={values.name}
          onChange={(e) => change('name')(e.target.value)}
          error={errors.name}
        />
        <TextField
          label={t('help.contact.email')}
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          required
          readOnly={locked}
          hint={lockedHint}
          value={values.email}
          onChange={(e) => change('email')(e.target.value)}
          error={errors.email}
        />
      </div>
      <TextField
        label={t('help.contact.subject')}
        name="subject"
        required
        maxLength={CONTACT_SUBJECT_MAX}
        value={values.subject}
        onChange={(e) => change('subject')(e.target.value)}
        error={errors.subject}
      />
      <div className="space-y-1.5">
        <label htmlFor={messageId} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
          {t('help.contact.message')}
        </label>
        <textarea
          id={messageId}
          name="message"
          required
          rows={6}
          maxLength={CONTACT_MESSAGE_MAX}
          value={values.message}
          onChange={(e) => change('message')(e.target.value)}
          aria-invalid={errors.message ? true : undefined}
          aria-describedby={errors.message ? `${messageId}-error` : undefined}
          className={cn(inputClasses, 'h-auto min-h-36 resize-y py-2')}
        />
        {errors.message && (
          <p id={`${messageId}-error`} className="text-sm font-medium text-red-700 dark:text-red-400">
            {errors.message}
          </p>
        )}
      </div>
      <Button type="submit" size="lg" loading={send.isPending} className="w-full sm:w-auto">
        {send.isPending ? t('help.contact.submitting') : t('help.contact.submit')}
      </Button>
    </form>
  );
}
