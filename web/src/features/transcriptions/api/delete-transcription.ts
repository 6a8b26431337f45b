import { useQueryClient, type InfiniteData } from '../../../lib/query';
import { useMutation } from '../../../lib/mutation';
import { api } from '../../../lib/api';
import type { TranscriptionKind } from '../kinds';
import { transcriptionKeys } from './keys';

type ListPages = InfiniteData<{ transcriptions: { _id: string }[] }, string | undefined>;

/** Deletes one transcription of a kind; every list of that kind drops it at once and is then reloaded. */
export function useDeleteTranscription(kind: TranscriptionKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      kind === 'saved' ? api('deleteTranscription', { params: { id } }) : api('deleteAutomaticTranscription', { params: { id } }),
    onSuccess: (_data, id) => {
      queryClient.setQueriesData<ListPages>({ queryKey: transcriptionKeys.lists(kind) }, (data) =>
        data && {
          ...data,
          pages: data.pages.map((page) => ({ ...page, transcriptions: page.transcriptions.filter((t) => t._id !== id) })),
        },
      );
      queryClient.removeQueries({ queryKey: transcriptionKeys.detail(kind, id) });
      return queryClient.invalidateQueries({ queryKey: transcriptionKeys.lists(kind) });
    },
  });
}
