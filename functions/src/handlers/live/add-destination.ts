import { ulid } from 'ulid';
import { CAPTION_DESTINATIONS_MAX } from '@app/shared/constants';
import type { CaptionDestination } from '@app/shared/schemas/live';
import { lastChunk } from '../../db/chunk-store.ts';
import { listCaptionDestinations, putCaptionDestination, type CaptionDestinationItem } from '../../db/caption-destinations.ts';
import { nowIso } from '../../db/client.ts';
import { getLiveShare, isLive } from '../../db/live-shares.ts';
import { checkDestinationUrl, maskTarget } from '../../domain/caption-destinations.ts';
import { localCaptionReceiver } from '../../lib/caption-delivery.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';

/** What the speaker sees of a destination: never its URL. */
export const destinationView = (d: CaptionDestinationItem): CaptionDestination => ({
  id: d.id,
  service: d.service,
  target: maskTarget(d.url),
  state: d.paused ? 'paused' : d.state,
  createdAt: d.createdAt,
  ...(d.lastDeliveredAt && { lastDeliveredAt: d.lastDeliveredAt }),
  ...(d.error && d.state !== 'delivered' && { error: d.error }),
});

/**
 * Adds a caption destination to the caller's live share: the URL must pass the service's rules
 * (domain/caption-destinations.ts), else 400 with nothing stored or sent. Captions start with the
 * words said from now on. Owner only (else 404); a share that ended: 409; at most
 * CAPTION_DESTINATIONS_MAX (409).
 */
export const handler = route('addCaptionDestination', async ({ user, params, body }) => {
  const checked = checkDestinationUrl(body.service, body.url, localCaptionReceiver());
  if ('error' in checked) throw badRequest(checked.error, 'invalid_destination');
  const share = await getLiveShare(params.code, true);
  if (!share || share.userId !== user.id) throw notFound('Unknown live link');
  if (!isLive(share)) throw conflict('This live link has ended', 'share_ended');
  const existing = await listCaptionDestinations(params.code, true);
  if (existing.length >= CAPTION_DESTINATIONS_MAX) throw conflict(`A live link sends captions to ${CAPTION_DESTINATIONS_MAX} destinations at most`, 'too_many_destinations');
  const item: CaptionDestinationItem = {
    id: ulid(),
    code: params.code,
    service: body.service,
    url: checked.url,
    userId: user.id,
    sessionId: share.sessionId,
    createdAt: nowIso(),
    expiresAt: share.expiresAt,
    cursor: (await lastChunk(user.id, 'AUTO', share.sessionId)).end,
    seq: 0,
    paused: false,
    state: 'waiting',
  };
  await putCaptionDestination(item);
  return destinationView(item);
});
