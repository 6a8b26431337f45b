import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { billingKeys } from './plan-status';

/**
 * The free tier's "n of 5" counter: automatic transcriptions started this
 * calendar month, counted by the server and carried on every automatic-list answer; one item
 * is enough to read it.
 */
export function useMonthlyUsage(enabled: boolean) {
  return useQuery({
    queryKey: billingKeys.monthlyUsage(),
    queryFn: async ({ signal }) => (await api('listAutomaticTranscriptions', { query: { limit: 1 }, signal })).startedThisMonth,
    enabled,
    staleTime: 0,
  });
}
