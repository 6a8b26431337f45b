import { deleteCaptionDestination } from '../../db/caption-destinations.ts';
import { getLiveShare } from '../../db/live-shares.ts';
import { notFound } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';

/** Removes a destination and its URL: nothing more is sent to it. Owner only (else 404); any plan, so a lapsed one can still remove it. */
export const handler = route('removeCaptionDestination', async ({ user, params }) => {
  const share = await getLiveShare(params.code, true);
  if (!share || share.userId !== user.id) throw notFound('Unknown live link');
  if (!(await deleteCaptionDestination(params.code, params.id))) throw notFound('Unknown destination');
  return { ok: true as const };
});
