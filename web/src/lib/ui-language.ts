import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from './toast';
import type { UiLanguage } from '@app/shared/constants';
import { api } from './api';
import { authKeys, useUser } from './auth';
import { currentUiLanguage } from './i18n';

/**
 * The UI language: switching applies at once (and is cached on the device by the
 * detector); for a signed-in user it is also saved to the profile, which wins on
 * the next load.
 */
export function useUiLanguage() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const user = useUser();
  const save = useMutation({
    mutationFn: (language: UiLanguage) => api('updateMe', { body: { language } }),
    // Serial, so the last choice is the one the server keeps.
    scope: { id: 'update-me' },
    onSuccess: (updated) => queryClient.setQueryData(authKeys.me(), updated),
    onError: () => toast.error(t('profile.saveError'), { description: t('profile.saveErrorDescription') }),
  });

  const language = currentUiLanguage();
  const setLanguage = (next: UiLanguage) => {
    if (next === language) return;
    void i18n.changeLanguage(next);
    if (user) save.mutate(next);
  };
  return { language, setLanguage, isSaving: save.isPending };
}
