import { listCaptionDestinations } from '../../db/caption-destinations.ts';
import { getLiveShare } from '../../db/live-shares.ts';
import { notFound } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';
import { destinationView } from './add-destination.ts';

/** The caller's share's caption destinations with their delivery state (never their URLs). Owner only: else 404. */
export const handler = route('listCaptionDestinations', async ({ user, params }) => {
  const share = await getLiveShare(params.code);
  if (!share || share.userId !== user.id) throw notFound('Unknown live link');
  return { destinations: (await listCaptionDestinations(params.code)).map(destinationView) };
});
