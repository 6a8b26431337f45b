import { useQuery } from '../../../lib/query';
import { api } from '../../../lib/api';
import type { TranscriptionDetailOf, TranscriptionKind } from '../kinds';
import { transcriptionKeys } from './keys';

/** One transcription with its full text and timed segments (lists carry a preview only). */
export function useTranscriptionDetail<K extends TranscriptionKind>(kind: K, id: string | null) {
  return useQuery({
    queryKey: transcriptionKeys.detail(kind, id ?? ''),
    queryFn: ({ signal }) =>
      (kind === 'saved'
        ? api('getTranscription', { params: { id: id! }, signal })
        : api('getAutomaticTranscription', { params: { id: id! }, signal })) as Promise<TranscriptionDetailOf<K>>,
    enabled: id !== null,
    // An automatic transcription may still be growing: always read it afresh.
    ...(kind === 'automatic' && { staleTime: 0 }),
  });
}
