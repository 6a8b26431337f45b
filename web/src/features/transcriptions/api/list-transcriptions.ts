import { useInfiniteQuery } from '../../../lib/infinite-query';
import { api } from '../../../lib/api';
import type { TranscriptionKind, TranscriptionPage } from '../kinds';
import { localTzOffset } from '../lib/format';
import { transcriptionKeys, type TranscriptionFilters } from './keys';

const PAGE_SIZE = 20;

const completedParam = { all: undefined, finished: 'true', inProgress: 'false' } as const;

/** One page of a kind's transcriptions, newest first (an automatic page also carries the month's counter). */
function fetchPage<K extends TranscriptionKind>(kind: K, filters: TranscriptionFilters, cursor: string | undefined, signal: AbortSignal) {
  const query = {
    search: filters.search || undefined,
    month: filters.month || undefined,
    tzOffset: filters.month ? localTzOffset() : undefined,
    cursor,
    limit: PAGE_SIZE,
  };
  const page =
    kind === 'saved'
      ? api('listTranscriptions', { query, signal })
      : api('listAutomaticTranscriptions', { query: { ...query, completed: completedParam[filters.status ?? 'all'] }, signal });
  return page as Promise<TranscriptionPage<K>>;
}

/** A kind's transcriptions for the applied filters, page by page. */
export function useTranscriptionList<K extends TranscriptionKind>(kind: K, filters: TranscriptionFilters) {
  return useInfiniteQuery({
    queryKey: transcriptionKeys.list(kind, filters),
    queryFn: ({ pageParam, signal }) => fetchPage(kind, filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // An automatic transcription being recorded in another tab keeps growing: show fresh data on return.
    ...(kind === 'automatic' && { staleTime: 0 }),
  });
}
