import type { Plan, RecognitionLanguage, Theme, UiLanguage } from '@app/shared/constants';
import type { User as PublicUser } from '@app/shared/schemas/auth';
import type { SubscriptionState } from './billing.ts';
import { effectivePlan } from './plan.ts';

/** A user as stored (db/users.ts: one item, PK USER#id, SK PROFILE). `plan` may hold the legacy 'premium', read as pro. */
export interface User {
  id: string;
  name: string;
  email: string;
  passwordHash: string;
  language: UiLanguage;
  theme: Theme;
  transcriptionLang: RecognitionLanguage;
  plan: Plan | 'premium';
  planExpiry: string | null;
  /** false once every active subscription is set to cancel at its period end (db/billing.ts). */
  planRenews?: boolean;
  /** Bumped on every password change and logout: tokens carrying an older value are refused. */
  tokenVersion: number;
  /** The Stripe customer, recorded by the billing webhook (also the item's GSI1 key; see db/billing.ts). */
  stripeCustomerId?: string;
  /** The open checkout session (db/billing.ts), if any. */
  checkoutId?: string;
  /** The user's Stripe subscriptions by id (db/billing.ts). */
  subscriptions?: Record<string, SubscriptionState>;
  /** Set once the survey has been shown to this user (absent on older records: not shown). */
  surveyShown?: boolean;
  createdAt: string;
  updatedAt: string;
}

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
