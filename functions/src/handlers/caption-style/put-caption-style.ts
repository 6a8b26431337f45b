import { putCaptionStyle } from '../../db/caption-style.ts';
import { route } from '../../lib/http.ts';

/** Replaces the caller's caption style whole (the wrapper has checked it against the route's schema). Every plan. */
export const handler = route('putCaptionStyle', async ({ user, body }) => ({ style: await putCaptionStyle(user.id, body) }));
