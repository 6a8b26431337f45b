import { getCorrections } from '../../db/corrections.ts';
import { route } from '../../lib/http.ts';

/** The caller's text corrections; the defaults until they save any. */
export const handler = route('getCorrections', async ({ user }) => getCorrections(user.id));
