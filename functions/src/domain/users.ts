import { DEFAULT_RECOGNITION_LANGUAGES, type Plan, type RecognitionLanguage, type Theme, type UiLanguage } from '@app/shared/constants';
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
  /**
   * The recognition language the user chose in their profile; absent until they choose (see
   * recognitionLanguageOf). Older records hold LEGACY_DEFAULT_RECOGNITION_LANGUAGE from sign-up.
   */
  transcriptionLang?: RecognitionLanguage;
  /** Set with transcriptionLang when the user chooses it; absent on records written before the choice was marked. */
  transcriptionLangChosen?: boolean;
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
  /** Whether a password sign-in also needs a passkey or a recovery code (docs/passkeys.md); absent: no. */
  passkeyRequired?: boolean;
  /** Set once the survey has been shown to this user (absent on older records: not shown). */
  surveyShown?: boolean;
  /** When the user opened the verification link mailed to `email`; absent: not verified (every account made before verification existed). */
  emailVerifiedAt?: string;
  /** The address the account was created with; absent on accounts made before it was recorded, whose address never changed (there is no way to change it). */
  createdWithEmail?: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * What sign-up stored as everyone's recognition language before a choice was marked. Such a
 * record cannot tell a choice from the default, so the value counts as not chosen (a user who
 * picked it keeps it on the device they picked it on); any other unmarked value was chosen.
 */
export const LEGACY_DEFAULT_RECOGNITION_LANGUAGE: RecognitionLanguage = 'pt-BR';

/**
 * The recognition language a user gets: the one they chose, else their interface language's
 * locale (pt -> pt-BR, en -> en-US, es -> es-ES), which follows the interface language as it changes.
 */
export function recognitionLanguageOf(user: Pick<User, 'language' | 'transcriptionLang' | 'transcriptionLangChosen'>): RecognitionLanguage {
  const stored = user.transcriptionLang;
  const chosen = stored !== undefined && (user.transcriptionLangChosen === true || stored !== LEGACY_DEFAULT_RECOGNITION_LANGUAGE);
  return chosen ? stored : DEFAULT_RECOGNITION_LANGUAGES[user.language];
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
    transcriptionLang: recognitionLanguageOf(user),
    plan,
    planExpiry: user.planExpiry,
    planRenews: plan === 'pro' && user.planRenews !== false,
    surveyShown: user.surveyShown === true,
    emailVerified: user.emailVerifiedAt !== undefined,
    createdAt: user.createdAt,
  };
}

/**
 * Where a password-reset link may go: the account's address once verified, otherwise only the
 * address the account was created with (so an address set later and never proven cannot take the
 * account over). An account made before the creation address was recorded never changed its
 * address, so its address is the one it was created with.
 */
export function passwordResetAddress(user: Pick<User, 'email' | 'emailVerifiedAt' | 'createdWithEmail'>): string {
  return user.emailVerifiedAt !== undefined ? user.email : (user.createdWithEmail ?? user.email);
}
