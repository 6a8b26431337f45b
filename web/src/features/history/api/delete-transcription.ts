import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { historyKeys } from './keys';
import type { TranscriptionPages } from './list-transcriptions';

/** Deletes one saved transcription; every list drops it at once and is then reloaded. */
export function useDeleteTranscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api('deleteTranscription', { params: { id } }),
    onSuccess: (_data, id) => {
      queryClient.setQueriesData<TranscriptionPages>({ queryKey: historyKeys.lists() }, (data) =>
        data && {
          ...data,
          pages: data.pages.map((page) => ({ ...page, transcriptions: page.transcriptions.filter((t) => t._id !== id) })),
        },
      );
      queryClient.removeQueries({ queryKey: historyKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: historyKeys.lists() });
    },
  });
}
