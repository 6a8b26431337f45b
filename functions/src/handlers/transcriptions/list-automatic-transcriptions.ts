import { countStartedThisMonth, listSessions } from '../../db/autosave-sessions.ts';
import { route } from '../../lib/http.ts';
import { nextCursor, pageRequest } from '../../lib/paging.ts';

export const handler = route('listAutomaticTranscriptions', async ({ user, query }) => {
  const completed = query.completed === undefined ? undefined : query.completed === 'true';
  const [{ items, more, lastId }, startedThisMonth] = await Promise.all([
    listSessions(user.id, { ...pageRequest(query), completed }),
    countStartedThisMonth(user.id),
  ]);
  return { transcriptions: items, nextCursor: nextCursor(more, lastId), startedThisMonth };
});
