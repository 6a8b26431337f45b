import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast';
import { updateMeRequest, type UpdateMeRequest, type User } from '@app/shared/schemas/auth';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { fieldCopy, useSchemaForm } from '../../../lib/validation';
import { useUpdateProfile } from './api/update-profile';
import { Section } from './section';

export function PersonalInfoForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const update = useUpdateProfile();
  // The profile update request's name rule, the same as sign-up's (one schema in shared/).
  const { field, handleSubmit, reset } = useSchemaForm(updateMeRequest, fieldCopy, { defaultValues: { name: user.name } });

  const submit = ({ name }: UpdateMeRequest) => {
    if (update.isPending) return;
    update.mutate(
      { name },
      {
        onSuccess: (updated) => {
          reset({ name: updated.name });
          toast.success(t('profile.updated'));
        },
        onError: () => toast.error(t('profile.saveError'), { description: t('profile.saveErrorDescription') }),
      },
    );
  };

  return (
    <Section title={t('profile.personal')}>
      <form noValidate onSubmit={handleSubmit(submit)} className="space-y-5">
        <TextField {...field('name')} label={t('profile.name')} autoComplete="name" required />
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
