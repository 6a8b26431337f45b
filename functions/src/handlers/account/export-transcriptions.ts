import { EXPORT_LIST_LIMIT } from '@app/shared/schemas/account';
import { listAutomaticTranscriptionsAfter } from '../../db/automatic-transcriptions.ts';
import { listTranscriptionsAfter } from '../../db/transcriptions.ts';
import { route } from '../../lib/http.ts';

/**
 * GET /api/me/export/transcriptions?kind=&cursor=: the caller's saved or automatic
 * transcriptions' metadata, oldest first, EXPORT_LIST_LIMIT a page; `cursor` (the last id) asks
 * for the next page, null when there is none. Every plan: a saved transcription of a former Pro
 * user is theirs to take too.
 */
export const handler = route('exportTranscriptions', async ({ user, query }) => {
  if (query.kind === 'saved') {
    const { items, more } = await listTranscriptionsAfter(user.id, query.cursor, EXPORT_LIST_LIMIT);
    return { kind: 'saved' as const, items, cursor: more ? items.at(-1)!._id : null };
  }
  const { items, more } = await listAutomaticTranscriptionsAfter(user.id, query.cursor, EXPORT_LIST_LIMIT);
  return { kind: 'automatic' as const, items, cursor: more ? items.at(-1)!._id : null };
});
