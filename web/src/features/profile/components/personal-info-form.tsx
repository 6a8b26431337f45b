import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast';
import { registerRequest, type User } from '@app/shared/schemas/auth';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { validateField } from '../../../lib/validation';
import { useUpdateProfile } from '../api/update-profile';
import { Section } from './section';

export function PersonalInfoForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const update = useUpdateProfile();
  const [name, setName] = useState(user.name);
  const [error, setError] = useState<string>();
  const nameRef = useRef<HTMLInputElement>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending) return;
    // The same name rule as sign-up (one schema in shared/).
    const problem = validateField('name', registerRequest.shape.name, name);
    setError(problem);
    if (problem) return nameRef.current?.focus();
    update.mutate(
      { name: name.trim() },
      {
        onSuccess: (updated) => {
          setName(updated.name);
          toast.success(t('profile.updated'));
        },
        onError: () => toast.error(t('profile.saveError'), { description: t('profile.saveErrorDescription') }),
      },
    );
  };

  return (
    <Section title={t('profile.personal')}>
      <form noValidate onSubmit={submit} className="space-y-5">
        <TextField
          ref={nameRef}
          label={t('profile.name')}
          name="name"
          autoComplete="name"
          required
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setError(undefined);
          }}
          error={error}
        />
        <TextField label={t('profile.email')} type="email" name="email" autoComplete="email" value={user.email} readOnly hint={t('profile.emailHint')} />
        <div className="flex justify-end">
          <Button type="submit" loading={update.isPending}>
            {update.isPending ? t('profile.saving') : t('profile.save')}
          </Button>
        </div>
      </form>
    </Section>
  );
}
