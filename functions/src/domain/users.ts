import type { User as PublicUser } from '@app/shared/schemas/auth';
import type { User } from '../db/users.ts';
import { effectivePlan } from './plan.ts';

/** What the API shows of a user: never the hash or the token version. */
export function toPublicUser(user: User, now = Date.now()): PublicUser {
  const plan = effectivePlan(user, now);
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    language: user.language,
    theme: user.theme,
    transcriptionLang: user.transcriptionLang,
    plan,
    planExpiry: user.planExpiry,
    planRenews: plan === 'pro' && user.planRenews !== false,
    surveyShown: user.surveyShown === true,
    createdAt: user.createdAt,
  };
}
