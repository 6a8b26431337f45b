import { useQueryClient } from './query';
import { useMutation } from './mutation';
import { useCallback } from 'react';
import type { CorrectionSettings } from '@app/shared/schemas/corrections';
import { api } from './api';
import { useSession } from './auth';
import { correctionsKeys, writeDeviceCorrections } from './corrections-settings';

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
