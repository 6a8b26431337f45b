import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '@app/shared/constants';
import { correctionSettings, DEFAULT_CORRECTIONS, type CorrectionSettings } from '@app/shared/schemas/corrections';
import { api } from './api';
import { useSession } from './auth';
import { readStorage, writeStorage } from './storage';

/**
 * The text corrections in force: a signed-in user's from the account (GET /api/me/corrections),
 * a visitor's from the device (localStorage, the same shape). Both read and written here only.
 */

export const correctionsKeys = {
  all: ['corrections'] as const,
  of: (userId: string) => ['corrections', userId] as const,
};

/** A visitor's settings on this device; the defaults when none (or unreadable ones) are stored. */
export function readDeviceCorrections(): CorrectionSettings {
  const raw = readStorage(STORAGE_KEYS.corrections);
  if (!raw) return DEFAULT_CORRECTIONS;
  try {
    const parsed = correctionSettings.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : DEFAULT_CORRECTIONS;
  } catch {
    return DEFAULT_CORRECTIONS;
  }
}

const deviceListeners = new Set<() => void>();
let deviceCache: { raw: string | null; settings: CorrectionSettings } | undefined;
function deviceSnapshot(): CorrectionSettings {
  const raw = readStorage(STORAGE_KEYS.corrections);
  if (deviceCache?.raw !== raw) deviceCache = { raw, settings: readDeviceCorrections() };
  return deviceCache.settings;
}
const subscribeDevice = (listener: () => void) => {
  deviceListeners.add(listener);
  return () => deviceListeners.delete(listener);
};

export function writeDeviceCorrections(settings: CorrectionSettings): void {
  writeStorage(STORAGE_KEYS.corrections, JSON.stringify(settings));
  for (const listener of deviceListeners) listener();
}

/** The settings in force, and whether a signed-in user's are still loading (the defaults meanwhile). */
export function useCorrections(): { settings: CorrectionSettings; isLoading: boolean } {
  const { user } = useSession();
  const device = useSyncExternalStore(subscribeDevice, deviceSnapshot);
  const account = useQuery({
    queryKey: correctionsKeys.of(user?.id ?? ''),
    // An answer of another shape (an older server) counts as the defaults.
    queryFn: async () => {
      const parsed = correctionSettings.safeParse(await api('getCorrections'));
      return parsed.success ? parsed.data : DEFAULT_CORRECTIONS;
    },
    enabled: Boolean(user),
    staleTime: 5 * 60_000,
  });
  if (!user) return { settings: device, isLoading: user === undefined };
  return { settings: account.data ?? DEFAULT_CORRECTIONS, isLoading: account.isPending };
}

/** Saves the settings whole: to the account (PUT), or for a visitor to the device. */
export function useSaveCorrections() {
  const { user } = useSession();
  const queryClient = useQueryClient();
  const userId = user?.id ?? null;
  const mutation = useMutation({
    mutationFn: async (settings: CorrectionSettings) => {
      if (!userId) {
        writeDeviceCorrections(settings);
        return settings;
      }
      return api('putCorrections', { body: settings });
    },
    onSuccess: (saved) => {
      if (userId) queryClient.setQueryData(correctionsKeys.of(userId), saved);
    },
  });
  const save = useCallback((settings: CorrectionSettings) => mutation.mutateAsync(settings), [mutation]);
  return { save, isPending: mutation.isPending, error: mutation.error, reset: mutation.reset };
}
