import { updateProfile } from '../../db/users.ts';
import { effectivePlan } from '../../domain/plan.ts';
import { toPublicUser } from '../../domain/users.ts';
import { forbidden } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';

export const handler = route('updateMe', async ({ user, body }) => {
  if (body.theme === 'dark' && effectivePlan(user) !== 'pro') {
    throw forbidden('The dark theme is a Pro feature.', { code: 'requires_pro', requiresPro: true });
  }
  return toPublicUser(await updateProfile(user.id, body));
});
