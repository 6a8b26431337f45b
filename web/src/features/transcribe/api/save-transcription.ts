import { useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/mutation';
import type { SaveTranscriptionRequest } from '@app/shared/schemas/transcriptions';
import { api } from '../../../lib/api';

/** Saves the transcript to the account (Pro; 403 with requiresPro otherwise). */
export function useSaveTranscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SaveTranscriptionRequest) => api('saveTranscription', { body }),
    // The saved transcriptions' lists (transcriptionKeys.lists('saved') = ['transcriptions', 'saved', 'list']) refetch when next shown.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['transcriptions', 'saved', 'list'] }),
  });
}
