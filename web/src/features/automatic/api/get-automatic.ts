import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { automaticKeys } from './keys';

/** One automatic transcription with its full text (lists carry a preview only). */
export function useAutomaticTranscription(id: string | null) {
  return useQuery({
    queryKey: automaticKeys.detail(id ?? ''),
    queryFn: ({ signal }) => api('getAutomaticTranscription', { params: { id: id! }, signal }),
    enabled: id !== null,
    staleTime: 0,
  });
}
