import { TEST_CAPTCHA_TOKEN, type CaptchaAction } from '@app/shared/constants';

/**
 * The bot check (reCAPTCHA v3). Without a site key (local runs, tests) the token the
 * local verifier accepts is returned; with one, Google's script is loaded once and run.
 */
const siteKey = import.meta.env.VITE_RECAPTCHA_SITE_KEY ?? '';

interface Grecaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}
declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

let scriptPromise: Promise<Grecaptcha> | undefined;

function loadScript(key: string): Promise<Grecaptcha> {
  scriptPromise ??= new Promise<Grecaptcha>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(key)}`;
    script.async = true;
    script.onload = () => {
      const g = window.grecaptcha;
      if (g) g.ready(() => resolve(g));
      else reject(new Error('reCAPTCHA did not load'));
    };
    script.onerror = () => reject(new Error('reCAPTCHA did not load'));
    document.head.appendChild(script);
  }).catch((err: unknown) => {
    scriptPromise = undefined; // allow a retry on the next submit
    throw err;
  });
  return scriptPromise;
}

/** Starts loading the script early (pages with a bot-checked form call it on mount). */
export function preloadCaptcha(): void {
  if (siteKey) void loadScript(siteKey).catch(() => undefined);
}

/** A token for one form submission. Rejects when the bot check cannot run. */
export async function getCaptchaToken(action: CaptchaAction): Promise<string> {
  if (!siteKey) return TEST_CAPTCHA_TOKEN;
  const grecaptcha = await loadScript(siteKey);
  return grecaptcha.execute(siteKey, { action });
}
