import { putCorrections } from '../../db/corrections.ts';
import { route } from '../../lib/http.ts';

/** Replaces the caller's text corrections whole (the wrapper has checked them against the route's schema). */
export const handler = route('putCorrections', async ({ user, body }) => putCorrections(user.id, body));
