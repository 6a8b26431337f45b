import { getCaptionStyle } from '../../db/caption-style.ts';
import { route } from '../../lib/http.ts';

/** The caller's caption style; null until they save one. */
export const handler = route('getCaptionStyle', async ({ user }) => ({ style: (await getCaptionStyle(user.id)) ?? null }));
