import { toPublicUser } from '../../domain/users.ts';
import { route } from '../../lib/http.ts';

export const handler = route('getMe', async ({ user }) => toPublicUser(user));
