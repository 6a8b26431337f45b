import { countAutomaticTranscriptionsThisMonth, listAutomaticTranscriptions } from '../../db/automatic-transcriptions.ts';
import { route } from '../../lib/http.ts';
import { nextCursor, pageRequest } from '../../lib/paging.ts';

export const handler = route('listAutomaticTranscriptions', async ({ user, query }) => {
  const completed = query.completed === undefined ? undefined : query.completed === 'true';
  const [{ items, more, lastId }, keptThisMonth] = await Promise.all([
    listAutomaticTranscriptions(user.id, { ...pageRequest(query), completed }),
    countAutomaticTranscriptionsThisMonth(user.id),
  ]);
  return { transcriptions: items, nextCursor: nextCursor(more, lastId), keptThisMonth };
});
