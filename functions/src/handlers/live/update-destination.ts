import { setCaptionDestinationPaused } from '../../db/caption-destinations.ts';
import { lastChunk } from '../../db/chunk-store.ts';
import { getLiveShare } from '../../db/live-shares.ts';
import { notFound } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';
import { destinationView } from './add-destination.ts';

/** Pauses a destination, or resumes it with the words said from now on. Owner only (else 404). */
export const handler = route('updateCaptionDestination', async ({ user, params, body }) => {
  const share = await getLiveShare(params.code, true);
  if (!share || share.userId !== user.id) throw notFound('Unknown live link');
  const cursor = body.paused ? 0 : (await lastChunk(user.id, 'AUTO', share.sessionId)).end;
  const updated = await setCaptionDestinationPaused(params.code, params.id, body.paused, cursor);
  if (!updated) throw notFound('Unknown destination');
  return destinationView(updated);
});
