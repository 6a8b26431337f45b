import { listTranscriptions } from '../../db/transcriptions.ts';
import { route } from '../../lib/http.ts';
import { nextCursor, pageRequest } from '../../lib/paging.ts';

export const handler = route('listTranscriptions', async ({ user, query }) => {
  const { items, more } = await listTranscriptions(user.id, pageRequest(query));
  return { transcriptions: items, nextCursor: nextCursor(more, items.at(-1)?._id) };
});
