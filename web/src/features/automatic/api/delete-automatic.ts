import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { automaticKeys } from './keys';
import type { AutomaticPages } from './list-automatic';

/** Deletes one automatic transcription; every list drops it at once and is then reloaded. */
export function useDeleteAutomatic() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api('deleteAutomaticTranscription', { params: { id } }),
    onSuccess: (_data, id) => {
      queryClient.setQueriesData<AutomaticPages>({ queryKey: automaticKeys.lists() }, (data) =>
        data && {
          ...data,
          pages: data.pages.map((page) => ({ ...page, transcriptions: page.transcriptions.filter((t) => t._id !== id) })),
        },
      );
      queryClient.removeQueries({ queryKey: automaticKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: automaticKeys.lists() });
    },
  });
}
