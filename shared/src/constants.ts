/** Business constants and limits. The one copy of each. */
import type { RecognitionLanguage } from './recognition-languages.ts';
import type { CorrectionSettings } from './schemas/corrections.ts';

export const VISITOR_LIMIT_SECONDS = 60;
export const AUTOSAVE_INTERVAL_MS = 30_000;
export const AUTOSAVE_MIN_GAP_MS = 10_000;
/** Autosave saves one user may send a minute: a live share saves every second; retries and a second tab fit too. */
export const AUTOSAVE_SAVES_PER_MINUTE = 120;
/** Characters a free user's automatic transcriptions may take in a UTC day: about 18 hours of speech. */
export const FREE_AUTOSAVE_DAILY_CHARS = 1_000_000;
/** A signed-in page's plan is never older than this: taken from the autosave's answers, else asked for. */
export const PLAN_POLL_MS = 30_000;
/**
 * The wait before a new recognizer when one cannot start at once: after a second recognizer in a
 * row that ended without a result, or when the browser refused start() inside `end` and in the
 * next task. A recognizer that simply ended is followed by the next one in the same task.
 */
export const RECOGNITION_RESTART_MS = 200;
export const TITLE_MAX = 100;
/**
 * Timed segments (final recognition results) in one save request, autosave delta or whole
 * transcript. Fast speech is about 4 words a second and a final result closes at a pause,
 * every few seconds: a 30-second delta carries at most ~120 segments even at one per word,
 * and a 12-hour transcript saved whole has ~10,000 (one result every 4 s). 20,000 covers that
 * with room, and keeps the worst request within the cap (every segment checked, then refused
 * at the last) near 100 ms of handler CPU. A longer array is refused before any of its
 * segments is parsed; past the cap a client keeps the text and drops the extra timings.
 */
export const SEGMENTS_MAX = 20_000;
/** New passwords (register, reset, change); older accounts with shorter ones still sign in. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
/**
 * The least zxcvbn score (0-4) a new password needs: 3 is about 10^8 guesses or more, so a
 * password of the common-password dictionaries, a keyboard walk or a name with a digit is refused.
 */
export const PASSWORD_MIN_SCORE = 3;
export const NAME_MAX = 100;
export const EMAIL_MAX = 254;
/**
 * Automatic transcriptions a free account keeps a calendar month (UTC), counting the month's
 * ones it still has (deleting one makes room): past it, a session still transcribes live but
 * the server keeps none of it. Pro keeps every one. Visitors keep none.
 */
export const FREE_AUTOMATIC_PER_MONTH = 5;
export const REFUND_DAYS = 7;
export const SUPPORT_RESPONSE_HOURS = 24;
export const ACCURACY_TEXT = '85–95%';
export const UPGRADE_TOAST_MS = 5_000;
export const RESET_REDIRECT_MS = 2_000;
export const PREVIEW_CHARS = 200;
export const SESSION_ID_SHOWN_CHARS = 8;

/**
 * Email verification: the link mailed at sign-up (and on request) lives VERIFY_TOKEN_TTL_SECONDS;
 * a user may ask for it again VERIFY_RESEND_LIMIT times in VERIFY_RESEND_WINDOW_SECONDS.
 */
export const VERIFY_TOKEN_TTL_SECONDS = 24 * 60 * 60;
export const VERIFY_RESEND_LIMIT = 3;
export const VERIFY_RESEND_WINDOW_SECONDS = 60 * 60;

/** Password reset: one request per hour per email; a token lives one hour. */
export const FORGOT_PASSWORD_WINDOW_SECONDS = 60 * 60;
export const RESET_TOKEN_TTL_SECONDS = 60 * 60;
/**
 * Sign-in attempts are counted per account and client address before the password is
 * checked, in windows of LOGIN_WINDOW_SECONDS. Past LOGIN_CAPTCHA_AFTER attempts from one
 * address (or LOGIN_ACCOUNT_CAPTCHA_AFTER from all addresses together) every attempt must
 * pass the bot check; past LOGIN_ATTEMPT_LIMIT from one address that address waits for the
 * window to end. Other addresses are never locked out, and a successful sign-in clears its
 * address's count.
 */
export const LOGIN_WINDOW_SECONDS = 15 * 60;
export const LOGIN_CAPTCHA_AFTER = 5;
export const LOGIN_ACCOUNT_CAPTCHA_AFTER = 20;
export const LOGIN_ATTEMPT_LIMIT = 30;
/**
 * Changing the password while signed in: wrong current passwords are counted per account, as
 * sign-in attempts are, and past CHANGE_PASSWORD_ATTEMPT_LIMIT in LOGIN_WINDOW_SECONDS the
 * account waits for the window to end (a right one clears the count).
 */
export const CHANGE_PASSWORD_ATTEMPT_LIMIT = 5;
/**
 * Passkeys (docs/passkeys.md): a user holds at most PASSKEYS_MAX; a ceremony's challenge lives
 * PASSKEY_CHALLENGE_TTL_SECONDS; adding a passkey, new recovery codes or the second factor's
 * switch need a sign-in at most PASSKEY_REAUTH_SECONDS old, or the current password. The first
 * passkey brings RECOVERY_CODE_COUNT recovery codes; wrong ones are counted per account, at most
 * RECOVERY_CODE_ATTEMPT_LIMIT in LOGIN_WINDOW_SECONDS.
 */
export const PASSKEYS_MAX = 10;
export const PASSKEY_NAME_MAX = 60;
export const PASSKEY_CHALLENGE_TTL_SECONDS = 5 * 60;
export const PASSKEY_REAUTH_SECONDS = 10 * 60;
export const RECOVERY_CODE_COUNT = 10;
export const RECOVERY_CODE_ATTEMPT_LIMIT = 5;
/**
 * Sessions (docs/sessions.md). A session token lives TOKEN_TTL_SECONDS from when it was signed:
 * the idle timeout, as a token used after TOKEN_RENEW_AFTER_SECONDS is replaced by a fresh one,
 * so a week without any use ends the session. Whatever the use, a session ends
 * SESSION_MAX_SECONDS after its sign-in (the absolute lifetime): renewals never pass it.
 */
export const TOKEN_TTL_SECONDS = 7 * 24 * 60 * 60;
export const TOKEN_RENEW_AFTER_SECONDS = 60 * 60;
export const SESSION_MAX_SECONDS = 30 * 24 * 60 * 60;
/**
 * The cookie holding the session token: HttpOnly (no page script reads it), Secure, SameSite=Strict,
 * Path=/ and no Domain (the `__Host-` prefix makes the browser hold it to all four).
 */
export const SESSION_COOKIE = '__Host-session';
/** The maintenance bypass token given for a correct dev password. */
export const DEV_BYPASS_TTL_SECONDS = 60 * 60;
/**
 * Request header naming the user a call is meant for (the autosave's queued text): the API refuses
 * it (401 `session_changed`) when the session cookie is another user's, signed in meanwhile.
 */
export const SESSION_USER_HEADER = 'x-session-user';
/** Request header carrying the maintenance bypass token. */
export const DEV_BYPASS_HEADER = 'x-dev-bypass';
/** Sent by CloudFront to the API with a secret value: requests without it did not come through CloudFront. */
/**
 * Security events: each is one structured log line of the API that CloudWatch also counts, in the
 * SECURITY_METRIC metric of the stack's namespace, by its `security_event` dimension.
 */
export const SECURITY_EVENTS = [
  'login_failed',
  'login_rate_limited',
  'bot_check_demanded',
  'bot_check_failed',
  'password_reset_requested',
  'password_reset_rate_limited',
  'password_reset_refused',
  'password_reset',
  'password_change_failed',
  'password_change_rate_limited',
  'password_changed',
  'account_delete_failed',
  'account_delete_rate_limited',
  'account_deleted',
  'logout',
  'logout_everywhere',
  'session_exchanged',
  'cross_site_refused',
  'dev_password_failed',
  'dev_password_rate_limited',
  'dev_password_accepted',
  'passkey_added',
  'passkey_removed',
  'passkey_sign_in_failed',
  'recovery_code_used',
  'recovery_code_failed',
] as const;
export type SecurityEvent = (typeof SECURITY_EVENTS)[number];
export const SECURITY_METRIC = 'SecurityEvents';

export const ORIGIN_SECRET_HEADER = 'x-origin-verify';

export const UI_LANGUAGES = ['pt', 'en', 'es'] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];
export const FALLBACK_UI_LANGUAGE: UiLanguage = 'en';

/**
 * Recognition languages: every one is in recognition-languages.ts (kept out of the home route's
 * first load); these eight are featured, first in every list, and the first is the free one.
 */
export const FEATURED_RECOGNITION_LANGUAGES = ['en-US', 'es-ES', 'pt-BR', 'fr-FR', 'ar-SA', 'he-IL', 'zh-CN', 'ru-RU'] as const satisfies readonly RecognitionLanguage[];
export type { RecognitionLanguage };
/**
 * How many languages (not locales: en-US and en-GB are one) the list holds, as the plan copy
 * states it. Written out so the home route's copy does not load the whole list; a test holds it
 * to the list.
 */
export const RECOGNITION_LANGUAGE_COUNT = 66;
export const FREE_RECOGNITION_LANGUAGE: RecognitionLanguage = 'en-US';
/** A Pro user's recognition language until they choose one: their interface language's locale. */
export const DEFAULT_RECOGNITION_LANGUAGES: Record<UiLanguage, RecognitionLanguage> = { pt: 'pt-BR', en: 'en-US', es: 'es-ES' };

/** Scripts written right to left (ISO 15924 codes): Arabic, Hebrew, Thaana, Syriac, N'Ko, Adlam, Hanifi Rohingya, Mandaic, Samaritan, Yezidi. */
const RTL_SCRIPT = /^(?:Arab|Hebr|Thaa|Syrc|Nkoo|Adlm|Rohg|Mand|Samr|Yezi)$/;

/** What a locale's own text info says of its direction, where the browser has it (a method now, a getter before). */
type LocaleWithTextInfo = Intl.Locale & { getTextInfo?: () => { direction?: string }; textInfo?: { direction?: string } };

/** Right to left by the language's script: the one its tag names, else its likely one (ur -> Arab, yi -> Hebr, dv -> Thaa). */
export const rtlByScript = (locale: Intl.Locale) => RTL_SCRIPT.test(locale.maximize().script ?? '');

/**
 * The writing direction of text in a recognition language, set from the language itself: an
 * Arabic or Hebrew transcript that starts with digits or Latin words still reads right to left.
 * The browser's locale data says it (Intl.Locale's text info where the browser has it, else the
 * language's likely script). Unknown (no language recorded): the browser guesses from the text.
 */
export function textDirection(language: string | null | undefined): 'rtl' | 'ltr' | 'auto' {
  if (!language) return 'auto';
  try {
    const locale = new Intl.Locale(language) as LocaleWithTextInfo;
    const info = locale.getTextInfo?.() ?? locale.textInfo;
    if (info?.direction) return info.direction === 'rtl' ? 'rtl' : 'ltr';
    return rtlByScript(locale) ? 'rtl' : 'ltr';
  } catch {
    return 'ltr';
  }
}

/**
 * Whether a language is written without spaces between words (Chinese, Japanese, Cantonese):
 * recognition results then join with nothing between them. Thai, Lao, Khmer and Burmese also run
 * their words together, but put a space between phrases, which a result is.
 */
export function joinsWithoutSpaces(language: string | null | undefined): boolean {
  const base = (language ?? '').split('-')[0]!.toLowerCase();
  return base === 'zh' || base === 'ja' || base === 'yue';
}

export const THEMES = ['light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

export const PLANS = ['free', 'pro'] as const;
export type Plan = (typeof PLANS)[number];

export const CURRENCIES = ['USD', 'BRL'] as const;
export type Currency = (typeof CURRENCIES)[number];
/** One price table, used by the pricing page, the upgrade modal and checkout. Minor units per month. */
export const PRICES: Record<Currency, { amountMinor: number; interval: 'month' }> = {
  USD: { amountMinor: 600, interval: 'month' },
  BRL: { amountMinor: 3500, interval: 'month' },
};

/** Device storage keys. */
export const STORAGE_KEYS = {
  /**
   * The id of the user this device is signed in as: a hint for the page (who the session cookie
   * belongs to, and other tabs' sign-ins and sign-outs), never a credential.
   */
  sessionUser: 'session_user',
  /** Where earlier versions kept the session token itself; read once to move the session into the cookie. */
  legacyToken: 'token',
  theme: 'theme',
  devMode: 'devMode',
  devBypass: 'devBypass',
  transcriptionLang: 'transcriptionLang',
  surveyShown: 'survey_shown',
  uiLanguage: 'i18nextLng',
  analyticsLastVisit: 'analytics_last_visit',
  cookiesAccepted: 'cookies_accepted',
  /** Session storage: the random id a live captions viewer tab tells the viewer count. */
  liveViewerId: 'live_viewer_id',
  /** A visitor's text corrections (the same settings a signed-in user keeps on the account), as JSON. */
  corrections: 'text_corrections',
} as const;

/** The local bot-check verifier accepts this token and rejects others. */
export const TEST_CAPTCHA_TOKEN = 'test-pass';
/** The bot check's action per form: the page asks for a token for it, the server accepts only a token made for it. */
export const CAPTCHA_ACTIONS = { register: 'register', login: 'login', forgotPassword: 'forgot_password' } as const;
export type CaptchaAction = (typeof CAPTCHA_ACTIONS)[keyof typeof CAPTCHA_ACTIONS];
/** The lowest reCAPTCHA v3 score taken for a person. */
export const CAPTCHA_MIN_SCORE = 0.5;

/**
 * Live caption sharing: a share link lives LIVE_SHARE_SECONDS at most. While it is live the
 * speaker's client sends each change of its transcript at once through the autosave route, no
 * sooner than LIVE_SAVE_INTERVAL_MS after its last save (instead of the AUTOSAVE_INTERVAL_MS
 * cadence). A viewer asks for the text from where it has it; when there is nothing newer yet
 * the view holds the request (a long poll) up to LIVE_HOLD_SECONDS, looking for new text every
 * LIVE_HOLD_CHECK_MS, and answers as soon as some is saved. CloudFront (and the local server)
 * keeps an answer with text LIVE_CACHE_SECONDS and collapses the concurrent requests for one
 * offset into the one held request, so the handler runs once per saved change and CloudFront
 * location, however many follow. A viewer asks again at once after text, and no sooner than
 * LIVE_POLL_MS after its last request otherwise. It tells the viewer count it is watching every
 * LIVE_VIEWER_PING_MS; the count keeps at most LIVE_VIEWERS_MAX ids a minute.
 */
export const LIVE_SHARE_SECONDS = 12 * 60 * 60;
/** After its speaker stops it or its session completes, a link shows its last words this long, then nothing. */
export const LIVE_GRACE_SECONDS = 60;
/**
 * One answer to a live viewer carries at most this much text (whole chunks: it ends with the chunk
 * that crosses it) from at most LIVE_VIEW_MAX_CHUNKS chunks: a late viewer of a long talk catches
 * up in a few polls, and no request reads more than that, however much has been said.
 */
export const LIVE_VIEW_MAX_CHARS = 64_000;
export const LIVE_VIEW_MAX_CHUNKS = 200;
/** 600 ms: at most 100 saves a minute, under the route's AUTOSAVE_SAVES_PER_MINUTE (120). */
export const LIVE_SAVE_INTERVAL_MS = 600;
/** Under API Gateway's 29 s integration timeout and CloudFront's 30 s origin response timeout, with the view function's timeout above it. */
export const LIVE_HOLD_SECONDS = 20;
/** 200 ms: at most ~0.1 s more (~50 ms on average) between a stored caption and its viewers than 100 ms, for half a held call's reads. */
export const LIVE_HOLD_CHECK_MS = 200;
export const LIVE_CACHE_SECONDS = 1;
export const LIVE_POLL_MS = 500;
/**
 * A viewer's ping interval: the count covers the current and the previous minute, so a viewer
 * pinging at most every 60 s is counted continuously; 50 s leaves 10 s for a late timer or a slow
 * ping, with 40% fewer pings than 30 s (a ping is the count's whole cost, per viewer).
 */
export const LIVE_VIEWER_PING_MS = 50_000;
/** How often the speaker's share panel asks for the viewer count (a count covers the last one to two minutes). */
export const LIVE_VIEWERS_POLL_MS = 20_000;
export const LIVE_VIEWERS_MAX = 5_000;
/** A share code: LIVE_CODE_LENGTH URL-safe characters (base64url of 9 random bytes: 72 bits). */
export const LIVE_CODE_LENGTH = 12;

/**
 * Caption destinations: a live share's captions also sent, by the server, into a YouTube Live
 * stream or a Zoom meeting (docs/caption-destinations.md). At most CAPTION_DESTINATIONS_MAX a
 * share; each gets at most one request every CAPTION_SEND_INTERVAL_MS, each request waits at most
 * CAPTION_SEND_TIMEOUT_MS, and one caption carries at most CAPTION_MAX_CHARS (the rest follows in
 * the next). A failed request (network error or 5xx) is tried again after CAPTION_RETRY_FIRST_MS,
 * doubling up to CAPTION_RETRY_MAX_MS, for CAPTION_RETRY_BUDGET_MS in one relay run.
 */
export const CAPTION_DESTINATIONS_MAX = 4;
export const CAPTION_SEND_INTERVAL_MS = 1_000;
export const CAPTION_SEND_TIMEOUT_MS = 5_000;
export const CAPTION_MAX_CHARS = 400;
export const CAPTION_RETRY_FIRST_MS = 1_000;
export const CAPTION_RETRY_MAX_MS = 8_000;
export const CAPTION_RETRY_BUDGET_MS = 40_000;

/**
 * Text corrections (replacements, profanity, spoken commands, paragraphs by silence), kept on the
 * account for every plan, on the device for visitors. A list holds at most CORRECTIONS_MAX
 * replacements, each phrase and replacement at most CORRECTION_TEXT_MAX characters.
 */
export const CORRECTIONS_MAX = 200;
export const CORRECTION_TEXT_MAX = 100;
/** How profanity shows: as spoken, as its first letter and asterisks, or not at all. */
export const PROFANITY_MODES = ['off', 'mask', 'hide'] as const;
export type ProfanityMode = (typeof PROFANITY_MODES)[number];
/** The silence (seconds) before a final result that starts a new paragraph: a choice in this range, or none. */
export const PARAGRAPH_SILENCE_MIN_SECONDS = 1;
export const PARAGRAPH_SILENCE_MAX_SECONDS = 10;
export const PARAGRAPH_SILENCE_DEFAULT_SECONDS = 2;

/** The text corrections an account or device that never saved any has (here, not beside their schema, so the first load carries no zod). */
export const DEFAULT_CORRECTIONS: CorrectionSettings = {
  replacements: [],
  profanity: 'off',
  shareProfanity: 'mask',
  voiceCommands: false,
  paragraphSilence: PARAGRAPH_SILENCE_DEFAULT_SECONDS,
};
