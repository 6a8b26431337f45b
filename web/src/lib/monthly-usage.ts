import { useQuery } from './query';
import { api } from './api';

/**
 * The free plan's monthly counter: the automatic transcriptions of this calendar month the user
 * has (the server keeps FREE_AUTOMATIC_PER_MONTH), carried on every automatic-list answer (one
 * item is enough to read it). The transcription card and the profile's plan card read one
 * cached answer under this key.
 */
export const monthlyUsageKey = ['billing', 'monthly-usage'] as const;

export function useMonthlyUsage(enabled: boolean) {
  return useQuery({
    queryKey: monthlyUsageKey,
    queryFn: async ({ signal }) => (await api('listAutomaticTranscriptions', { query: { limit: 1 }, signal })).keptThisMonth,
    enabled,
    staleTime: 0,
  });
}
