import { FREE_RECOGNITION_LANGUAGE } from '@app/shared/constants';
import { updateProfile } from '../../db/users.ts';
import { effectivePlan } from '../../domain/plan.ts';
import { toPublicUser } from '../../domain/users.ts';
import { forbidden } from '../../lib/errors.ts';
import { route } from '../../lib/http.ts';

export const handler = route('updateMe', async ({ user, body }) => {
  const pro = effectivePlan(user) === 'pro';
  if (body.theme === 'dark' && !pro) {
    throw forbidden('The dark theme is a Pro feature.', { code: 'requires_pro', requiresPro: true });
  }
  // Every listed language is Pro's; a free account keeps the free one (the schema refuses unlisted ones).
  if (body.transcriptionLang !== undefined && body.transcriptionLang !== FREE_RECOGNITION_LANGUAGE && !pro) {
    throw forbidden(`Recognition languages other than ${FREE_RECOGNITION_LANGUAGE} are a Pro feature.`, { code: 'requires_pro', requiresPro: true });
  }
  return toPublicUser(await updateProfile(user.id, body));
});
