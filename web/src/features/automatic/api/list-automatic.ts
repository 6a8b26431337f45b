import { useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import type { RouteResponse } from '@app/shared/routes';
import { api } from '../../../lib/api';
import { localTzOffset } from '../lib/format';
import { automaticKeys, type AutomaticFilters } from './keys';

export const AUTOMATIC_PAGE_SIZE = 20;

export type AutomaticPage = RouteResponse<'listAutomaticTranscriptions'>;
export type AutomaticPages = InfiniteData<AutomaticPage, string | undefined>;

const completedParam = { all: undefined, finished: 'true', inProgress: 'false' } as const;

/** Automatic transcriptions, newest first, page by page (each page also carries the month's counter). */
export function useAutomaticList(filters: AutomaticFilters) {
  return useInfiniteQuery({
    queryKey: automaticKeys.list(filters),
    queryFn: ({ pageParam, signal }) =>
      api('listAutomaticTranscriptions', {
        query: {
          search: filters.search || undefined,
          month: filters.month || undefined,
          tzOffset: filters.month ? localTzOffset() : undefined,
          completed: completedParam[filters.status],
          cursor: pageParam,
          limit: AUTOMATIC_PAGE_SIZE,
        },
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // A session being recorded in another tab keeps growing: show fresh data on return.
    staleTime: 0,
  });
}
