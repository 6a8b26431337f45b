import { createHash } from 'node:crypto';

/**
 * The site's security headers (CloudFront response-headers policy, web.ts): the Content-Security-Policy
 * is built here from the few third-party origins the product uses, so it can be unit-tested.
 */

/** reCAPTCHA v3 (the bot check): Google's documented CSP sources. */
export const RECAPTCHA = {
  script: ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'],
  frame: ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'],
  connect: ['https://www.google.com/recaptcha/'],
} as const;

/** Stripe Checkout is a full-page redirect (no Stripe.js); only a form posting there needs allowing. */
export const STRIPE_CHECKOUT = 'https://checkout.stripe.com';

/**
 * Browser features this origin uses, for this origin only: the microphone, on-device speech
 * recognition (`SpeechRecognition.available/install` and `processLocally`, Web Speech API) and the
 * on-device Translator API (translated captions); every other listed feature is off.
 */
export const ALLOWED_FEATURES = ['microphone', 'on-device-speech-recognition', 'translator'] as const;
const DENIED_FEATURES = ['camera', 'geolocation', 'payment', 'usb', 'display-capture'] as const;
export const PERMISSIONS_POLICY = [...ALLOWED_FEATURES.map((f) => `${f}=(self)`), ...DENIED_FEATURES.map((f) => `${f}=()`)].join(', ');

/** HSTS: two years, subdomains included, on the browsers' preload list. */
export const HSTS_MAX_AGE_SECONDS = 730 * 86_400;
export const REFERRER_POLICY = 'strict-origin-when-cross-origin';
export const FRAME_OPTIONS = 'DENY';

/**
 * Every security header CloudFront adds to every response (the SPA's and the API's), named and
 * written as browsers receive them. web.ts builds the response-headers policy from these values and
 * the local server sends this same map, so every browser test runs under the production policy.
 */
export function securityHeaders(csp: string): Record<string, string> {
  return {
    'content-security-policy': csp,
    'strict-transport-security': `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains; preload`,
    'x-content-type-options': 'nosniff',
    'referrer-policy': REFERRER_POLICY,
    'x-frame-options': FRAME_OPTIONS,
    'permissions-policy': PERMISSIONS_POLICY,
  };
}

/** CloudFront's limit on the Content-Security-Policy value of a response-headers policy. */
export const CSP_MAX_LENGTH = 1783;

export interface CspOptions {
  /** Analytics / session-recording origins (context `analyticsOrigins`): script, connect and img sources. */
  readonly analyticsOrigins?: readonly string[];
  /** Origin of the embedded survey form (context `surveyOrigin`): a frame source. */
  readonly surveyOrigin?: string;
  /** `'sha256-…'` sources of the inline scripts of index.html (see inlineScriptHashes). */
  readonly scriptHashes?: readonly string[];
}

/**
 * A CSP source: `https://host[:port][/path]`, the host possibly starting with `*.`. Anything else
 * (quotes, `;`, spaces, `http:`, a bare `*`) is refused, so context values cannot widen or break the policy.
 */
const SOURCE = /^https:\/\/(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+(:\d{1,5})?(\/[A-Za-z0-9._~\-/]*)?$/;

export function assertSource(value: string, what: string): string {
  if (!SOURCE.test(value)) throw new Error(`${what}: "${value}" is not an https origin (https://host[:port][/path], host may start with *.)`);
  return value;
}

/** Context `analyticsOrigins`: comma-separated https origins; blank entries ignored, duplicates dropped. */
export function parseOrigins(value: string | undefined, what = 'analyticsOrigins'): string[] {
  if (!value) return [];
  const list = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  return [...new Set(list.map((s) => assertSource(s, what)))];
}

const unique = (xs: readonly string[]) => [...new Set(xs)];

/** The policy, directive by directive (tests read it this way; `buildCsp` joins it). */
export function cspDirectives(opts: CspOptions = {}): [string, string[]][] {
  const analytics = (opts.analyticsOrigins ?? []).map((o) => assertSource(o, 'analyticsOrigins'));
  const survey = opts.surveyOrigin ? [assertSource(opts.surveyOrigin, 'surveyOrigin')] : [];
  const hashes = (opts.scriptHashes ?? []).map((h) => {
    if (!/^'sha256-[A-Za-z0-9+/]{43}='$/.test(h)) throw new Error(`not a CSP sha256 source: ${h}`);
    return h;
  });
  return [
    ['default-src', ["'self'"]],
    ['script-src', unique(["'self'", ...hashes, ...RECAPTCHA.script, ...analytics])],
    ['connect-src', unique(["'self'", ...RECAPTCHA.connect, ...analytics])],
    ['frame-src', unique([...RECAPTCHA.frame, ...survey])],
    ['img-src', unique(["'self'", 'data:', 'blob:', ...analytics])],
    // React style attributes and the reCAPTCHA badge set inline styles.
    ['style-src', ["'self'", "'unsafe-inline'"]],
    ['font-src', ["'self'"]],
    ['manifest-src', ["'self'"]],
    ['worker-src', ["'self'"]],
    ['media-src', ["'self'", 'blob:']],
    ['form-action', ["'self'", STRIPE_CHECKOUT]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['frame-ancestors', ["'none'"]],
    ['upgrade-insecure-requests', []],
  ];
}

/** The Content-Security-Policy header value. */
export function buildCsp(opts: CspOptions = {}): string {
  const csp = cspDirectives(opts)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ');
  if (csp.length > CSP_MAX_LENGTH) {
    throw new Error(`Content-Security-Policy is ${csp.length} characters; CloudFront allows ${CSP_MAX_LENGTH}. Use fewer analyticsOrigins (wildcards like https://*.example.com).`);
  }
  return csp;
}

/**
 * `'sha256-…'` CSP sources for the inline scripts (no `src`) of an HTML page, hashed exactly as
 * written (what the browser hashes). Data blocks such as JSON-LD are not scripts and are skipped.
 */
export function inlineScriptHashes(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attrs = m[1] ?? '';
    const body = m[2] ?? '';
    if (/\bsrc\s*=/i.test(attrs) || body === '') continue;
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attrs)?.[1]?.toLowerCase();
    if (type && !['module', 'text/javascript', 'application/javascript'].includes(type)) continue;
    out.push(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return [...new Set(out)];
}
