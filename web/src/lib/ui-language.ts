import { useQueryClient } from './query';
import { useTranslation } from 'react-i18next';
import { toast } from './toast';
import type { UiLanguage } from '@app/shared/constants';
import { api } from './api';
import { authKeys, useUser } from './auth';
import { currentUiLanguage } from './i18n';

/**
 * The UI language: switching applies at once (and is kept on the device); for a signed-in user
 * it is also saved to the profile, which wins on the next load. The footer has this on every
 * page, so it runs the save through the query client directly, without a mutation hook.
 */
export function useUiLanguage() {
  const { i18n } = useTranslation();
  const queryClient = useQueryClient();
  const user = useUser();

  const language = currentUiLanguage();
  const setLanguage = (next: UiLanguage) => {
    if (next === language) return;
    void i18n.changeLanguage(next);
    if (!user) return;
    const save = queryClient.mutate(
      {
        mutationFn: (value: UiLanguage) => api('updateMe', { body: { language: value } }),
        // In the profile's scope: saves run one after another, so the last choice is the one the server keeps.
        scope: { id: 'update-me' },
        onSuccess: (updated) => queryClient.setQueryData(authKeys.me(), updated),
        // In the language just chosen.
        onError: () => toast.error(i18n.t('profile.saveError'), { description: i18n.t('profile.saveErrorDescription') }),
      },
      next,
    );
    // Its failure is told by onError.
    save.catch(() => {});
  };
  return { language, setLanguage };
}
