import { getCaptionStyle } from '../../db/caption-style.ts';
import { nowSeconds } from '../../db/client.ts';
import { getCorrections } from '../../db/corrections.ts';
import { listOwnShares } from '../../db/live-shares.ts';
import { liveWindow } from '../../domain/live.ts';
import { planStatus } from '../../domain/plan.ts';
import { toPublicUser } from '../../domain/users.ts';
import { route } from '../../lib/http.ts';

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/**
 * GET /api/me/export: the account's own part of Download my data: the profile as the API shows
 * it, the billing status and the subscriptions on record, the live links not expired, the text
 * corrections and the caption style. The transcriptions follow from their own routes, a page at a time.
 */
export const handler = route('exportAccount', async ({ user }) => {
  const now = nowSeconds();
  const [shares, corrections, captionStyle] = await Promise.all([listOwnShares(user.id, now), getCorrections(user.id), getCaptionStyle(user.id)]);
  return {
    exportedAt: iso(now),
    profile: toPublicUser(user),
    billing: {
      ...planStatus(user),
      hasStripeCustomer: user.stripeCustomerId !== undefined,
      subscriptions: Object.entries(user.subscriptions ?? {}).map(([id, s]) => ({
        id,
        status: s.status,
        periodEnd: s.end === null ? null : iso(s.end),
        renews: s.renews,
      })),
    },
    liveLinks: shares.map(({ share, session }) => ({
      code: share.code,
      status: session ? liveWindow(share, session, now).status : ('ended' as const),
      createdAt: share.createdAt,
      expiresAt: iso(share.expiresAt),
    })),
    corrections,
    captionStyle: captionStyle ?? null,
  };
});
