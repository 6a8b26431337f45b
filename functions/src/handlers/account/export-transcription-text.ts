import { EXPORT_TEXT_PAGE_CHARS } from '@app/shared/schemas/account';
import { readTextPage, StaleLayout } from '../../db/chunk-store.ts';
import { HttpError, notFound } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';

const KINDS = { saved: 'TRANS', automatic: 'AUTO' } as const;
const changed = (version: number) => new HttpError(409, 'The transcription changed while it was exported. Start its text again.', { code: 'version_conflict', version });

/**
 * GET /api/me/export/transcriptions/{kind}/{id}?from=&version=: one of the caller's
 * transcriptions' text and stored segments from `from`, about EXPORT_TEXT_PAGE_CHARS a page, and
 * where the next page starts. A later page of another version than `version` (an edit came in
 * between), or a `from` that is not where a page starts, is 409 version_conflict: the client
 * starts that text again. Another user's id: 404.
 */
export const handler = route('exportTranscriptionText', async ({ user, params, query }) => {
  let page;
  try {
    page = await readTextPage(user.id, KINDS[params.kind], params.id, query.from, EXPORT_TEXT_PAGE_CHARS);
  } catch (err) {
    if (err instanceof StaleLayout) throw changed(query.version ?? 0);
    throw err;
  }
  if (!page) throw notFound('Transcription not found');
  if (query.version !== undefined && page.version !== query.version) throw changed(page.version);
  return page;
});
