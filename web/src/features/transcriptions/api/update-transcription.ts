import { useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/mutation';
import type { UpdateTranscriptionRequest } from '@app/shared/schemas/transcriptions';
import { api } from '../../../lib/api';
import type { TranscriptionDetailOf, TranscriptionKind, TranscriptionSummaryOf } from '../kinds';
import { transcriptionKeys } from './keys';

export interface TranscriptionUpdate extends UpdateTranscriptionRequest {
  id: string;
}

/**
 * Edits one transcription of a kind (its text and/or title, on the version it was read at: a
 * stale one fails with ApiError 409 `version_conflict` carrying the current version). The open
 * detail takes the new text at once; its kind's lists and the detail are then read again (the
 * server places the segments).
 */
export function useUpdateTranscription<K extends TranscriptionKind>(kind: K) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: TranscriptionUpdate) =>
      (kind === 'saved'
        ? api('updateTranscription', { params: { id }, body })
        : api('updateAutomaticTranscription', { params: { id }, body })) as Promise<TranscriptionSummaryOf<K>>,
    onSuccess: (summary, { id, fullTranscript }) => {
      queryClient.setQueryData<TranscriptionDetailOf<K>>(transcriptionKeys.detail(kind, id), (old) =>
        old && { ...old, ...summary, ...(fullTranscript !== undefined && { fullTranscript }) },
      );
      void queryClient.invalidateQueries({ queryKey: transcriptionKeys.detail(kind, id) });
      return queryClient.invalidateQueries({ queryKey: transcriptionKeys.lists(kind) });
    },
  });
}
