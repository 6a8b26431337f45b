import { useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import type { RouteResponse } from '@app/shared/routes';
import { api } from '../../../lib/api';
import { localTzOffset } from '../lib/format';
import { historyKeys, type HistoryFilters } from './keys';

export const HISTORY_PAGE_SIZE = 20;

export type TranscriptionPage = RouteResponse<'listTranscriptions'>;
export type TranscriptionPages = InfiniteData<TranscriptionPage, string | undefined>;

export function fetchTranscriptions(filters: HistoryFilters, cursor: string | undefined, signal?: AbortSignal) {
  return api('listTranscriptions', {
    query: {
      search: filters.search || undefined,
      month: filters.month || undefined,
      tzOffset: filters.month ? localTzOffset() : undefined,
      cursor,
      limit: HISTORY_PAGE_SIZE,
    },
    signal,
  });
}

/** Saved transcriptions, newest first, page by page. `enabled` is false for non-Pro users: no request at all. */
export function useTranscriptionList(filters: HistoryFilters, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: historyKeys.list(filters),
    queryFn: ({ pageParam, signal }) => fetchTranscriptions(filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled,
  });
}
