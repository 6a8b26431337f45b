import { useQuery } from '../../../lib/query';
import { LIVE_VIEWERS_POLL_MS } from '@app/shared/constants';
import { api } from '../../../lib/api';

export const liveKeys = {
  viewers: (code: string) => ['live', code, 'viewers'] as const,
  /** The caller's own live links (the profile's list). */
  links: () => ['live', 'links'] as const,
};

/** How many people follow the caller's share (this minute and the last), asked every LIVE_VIEWERS_POLL_MS while mounted. */
export function useLiveViewers(code: string) {
  return useQuery({
    queryKey: liveKeys.viewers(code),
    queryFn: ({ signal }) => api('countLiveViewers', { params: { code }, signal }),
    select: (data) => data.viewers,
    refetchInterval: LIVE_VIEWERS_POLL_MS,
  });
}
