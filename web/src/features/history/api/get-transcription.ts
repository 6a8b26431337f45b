import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { historyKeys } from './keys';

/** One saved transcription with its full text and timed segments (lists carry a preview only). */
export function useTranscription(id: string | null) {
  return useQuery({
    queryKey: historyKeys.detail(id ?? ''),
    queryFn: ({ signal }) => api('getTranscription', { params: { id: id! }, signal }),
    enabled: id !== null,
  });
}
