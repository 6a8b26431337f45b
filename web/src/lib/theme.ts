import { useQueryClient } from './query';
import { useMutation } from './mutation';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from './toast';
import { STORAGE_KEYS, type Theme } from '@app/shared/constants';
import type { User } from '@app/shared/schemas/auth';
import { api, ApiError } from './api';
import { authKeys } from './auth';
import { writeStorage } from './storage';

/** The theme is a `dark` class on <html> (index.css); index.html applies the stored one before first paint. */
export function applyTheme(theme: Theme): void {
  document.documentElement.classList.toggle('dark', theme === 'dark');
}

/** Only Pro users get the dark theme: theirs (from the profile) is applied and kept on the device. */
export const themeOf = (user: User): Theme => (user.plan === 'pro' ? user.theme : 'light');

/**
 * Keeps <html> and the device in step with the user's theme; light again when the user
 * leaves. A free user's device keeps "light" (the profile still holds their choice), so
 * index.html never paints a lapsed Pro user dark.
 */
export function useThemeSync(user: User) {
  const theme = themeOf(user);
  useEffect(() => {
    applyTheme(theme);
    writeStorage(STORAGE_KEYS.theme, theme);
  }, [theme]);
  useEffect(() => () => applyTheme('light'), []);
}

/** Switches the theme at once and saves it to the device and the profile (PATCH /api/auth/me). */
export function useThemeToggle(user: User) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const save = useMutation({
    // keepalive: a reload or a link followed right after the click does not lose the choice.
    mutationFn: (theme: Theme) => api('updateMe', { body: { theme }, keepalive: true }),
    // Serial with the other profile updates, so the last choice is the one kept.
    scope: { id: 'update-me' },
    onSuccess: (updated) => queryClient.setQueryData(authKeys.me(), updated),
    onError: (error, theme) => {
      // A refusal puts the previous theme back. A call cut off on the network may well have been
      // saved (Chrome cuts off a leaving page's calls, and the keepalive call still reaches the
      // server): undone, the device would paint the next page in the old theme. The choice stays
      // until the profile's next answer settles it.
      if (!(error instanceof ApiError && error.status === 0)) {
        const previous: Theme = theme === 'dark' ? 'light' : 'dark';
        queryClient.setQueryData<User | null>(authKeys.me(), (u) => (u ? { ...u, theme: previous } : u));
      }
      toast.error(t('profile.saveError'), { description: t('profile.saveErrorDescription') });
    },
  });
  const theme = themeOf(user);
  const toggle = () => {
    const next: Theme = theme === 'dark' ? 'light' : 'dark';
    // Optimistic: the sync effect applies it and stores it on the device.
    queryClient.setQueryData<User | null>(authKeys.me(), (u) => (u ? { ...u, theme: next } : u));
    save.mutate(next);
  };
  return { theme, toggle };
}
