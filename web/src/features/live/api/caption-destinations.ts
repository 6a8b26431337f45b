import { api } from '../../../lib/api';
import { useQuery, useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/mutation';
import type { CaptionService } from '@app/shared/schemas/live';

/** How often the share panel asks for its destinations' delivery state while open. */
export const DESTINATIONS_POLL_MS = 2_000;

export const destinationKeys = { list: (code: string) => ['live', code, 'destinations'] as const };

/** The share's caption destinations and their state (never their URLs), asked every DESTINATIONS_POLL_MS while mounted. */
export function useCaptionDestinations(code: string) {
  return useQuery({
    queryKey: destinationKeys.list(code),
    queryFn: ({ signal }) => api('listCaptionDestinations', { params: { code }, signal }),
    select: (d) => d.destinations,
    refetchInterval: DESTINATIONS_POLL_MS,
  });
}

/** Adds, pauses or resumes, and removes destinations; each refreshes the list. */
export function useDestinationActions(code: string) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: destinationKeys.list(code) });
  const add = useMutation({
    mutationFn: (input: { service: CaptionService; url: string }) => api('addCaptionDestination', { params: { code }, body: input }),
    onSettled: refresh,
  });
  const setPaused = useMutation({
    mutationFn: ({ id, paused }: { id: string; paused: boolean }) => api('updateCaptionDestination', { params: { code, id }, body: { paused } }),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api('removeCaptionDestination', { params: { code, id } }),
    onSettled: refresh,
  });
  return { add, setPaused, remove };
}
