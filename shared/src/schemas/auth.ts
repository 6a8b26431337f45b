import * as z from 'zod';
import {
  NAME_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  PLANS,
  THEMES,
  UI_LANGUAGES,
} from '../constants.ts';
import { isRecognitionLanguage, type RecognitionLanguage } from '../recognition-languages.ts';
import { email } from './common.ts';

export const uiLanguage = z.enum(UI_LANGUAGES);
/** One of the recognition languages (recognition-languages.ts), as listed: any other string is refused by name. */
export const recognitionLanguage = z.custom<RecognitionLanguage>(isRecognitionLanguage, {
  error: (issue) =>
    typeof issue.input === 'string'
      ? `Unsupported recognition language "${issue.input.slice(0, 40)}": use one of the listed locales, such as en-US or ja-JP`
      : 'The recognition language must be a locale such as en-US or ja-JP',
});
export const theme = z.enum(THEMES);
export const plan = z.enum(PLANS);

const name = z.string().trim().min(1, 'Name is required').max(NAME_MAX, `Name must be at most ${NAME_MAX} characters`);

/**
 * A new password's length rules. Its strength (common and guessable passwords) and breach checks
 * run on the server (functions/src/lib/password-policy.ts), the same for register, reset and change.
 */
export const newPassword = z
  .string()
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`);

export const user = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  language: uiLanguage,
  theme: theme,
  transcriptionLang: recognitionLanguage,
  plan: plan,
  planExpiry: z.string().nullable(),
  /** false: Pro was cancelled and ends at planExpiry; otherwise it renews then. */
  planRenews: z.boolean().optional(),
  /** Whether the survey has been shown to this user (once per user). */
  surveyShown: z.boolean().default(false),
  /**
   * Whether the user has opened the verification link mailed to this address: false until then.
   * The API always sends it; the web app shows the banner only on an explicit false.
   */
  emailVerified: z.boolean().optional(),
  createdAt: z.string(),
});
export type User = z.infer<typeof user>;

/** A sign-in's answer: the user. The session token goes only in the HttpOnly session cookie, never in a body. */
export const authResponse = z.object({ user });
export type AuthResponse = z.infer<typeof authResponse>;

export const registerRequest = z.object({
  name,
  email,
  password: newPassword,
  recaptchaToken: z.string().min(1, 'Bot check token is required').max(4096),
  language: uiLanguage.optional(),
});
export type RegisterRequest = z.infer<typeof registerRequest>;

export const loginRequest = z.object({
  email,
  password: z.string().min(1, 'Password is required').max(1024),
  /** Required once the account has seen repeated attempts from this address (code captcha_required). */
  recaptchaToken: z.string().min(1, 'Bot check token is required').max(4096).optional(),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const updateMeRequest = z
  .object({
    name: name.optional(),
    language: uiLanguage.optional(),
    theme: theme.optional(),
    transcriptionLang: recognitionLanguage.optional(),
    surveyShown: z.boolean().optional(),
  })
  .strict()
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'Nothing to update');
export type UpdateMeRequest = z.infer<typeof updateMeRequest>;

export const forgotPasswordRequest = z.object({
  email,
  recaptchaToken: z.string().min(1, 'Bot check token is required').max(4096),
  language: uiLanguage.optional(),
});
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequest>;
export const forgotPasswordResponse = z.object({ ok: z.literal(true), message: z.string() });

export const resetPasswordRequest = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'This reset link is invalid'),
  newPassword,
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;

export const changePasswordRequest = z.object({
  currentPassword: z.string().min(1, 'Current password is required').max(1024),
  newPassword,
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;
/** The change ends every other session; this one goes on with a fresh session cookie. */
export const changePasswordResponse = z.object({ ok: z.literal(true) });

/** The token of a verification link (its fragment: `/verify-email#<token>`). */
export const verifyEmailRequest = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'This verification link is invalid'),
});
export type VerifyEmailRequest = z.infer<typeof verifyEmailRequest>;

export const planStatusResponse = z.object({ plan, isPro: z.boolean(), planExpiry: z.string().nullable(), planRenews: z.boolean().optional() });
export type PlanStatusResponse = z.infer<typeof planStatusResponse>;
