import { listOwnShares } from '../../db/live-shares.ts';
import { liveWindow } from '../../domain/live.ts';
import { nowSeconds } from '../../db/client.ts';
import { route } from '../../lib/http.ts';

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/** The caller's live links that have not expired, newest first: live, or ended (stopped, or their session completed or deleted). */
export const handler = route('listLiveShares', async ({ user }) => {
  const now = nowSeconds();
  const links = (await listOwnShares(user.id, now)).map(({ share, session }) => ({
    code: share.code,
    status: session ? liveWindow(share, session, now).status : ('ended' as const),
    createdAt: share.createdAt,
    expiresAt: iso(share.expiresAt),
  }));
  return { links };
});
