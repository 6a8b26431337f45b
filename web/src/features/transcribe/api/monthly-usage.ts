import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/**
 * The free tier's "n of 5": automatic transcriptions started this
 * calendar month, counted by the server on every automatic-list answer. Same query key
 * as the profile's plan card, so both read one cached answer.
 */
export const monthlyUsageKey = ['billing', 'monthly-usage'] as const;

export function useMonthlyUsage(enabled: boolean) {
  return useQuery({
    queryKey: monthlyUsageKey,
    queryFn: async ({ signal }) => (await api('listAutomaticTranscriptions', { query: { limit: 1 }, signal })).startedThisMonth,
    enabled,
    staleTime: 0,
  });
}
