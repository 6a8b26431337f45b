/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** reCAPTCHA v3 site key; empty locally, where the test token is sent instead. */
  readonly VITE_RECAPTCHA_SITE_KEY?: string;
  /** Google Analytics 4 measurement id; loaded only after cookie consent. Absent: no analytics script. */
  readonly VITE_ANALYTICS_ID?: string;
  /** Microsoft Clarity project id; loaded only after cookie consent. Absent: no session recording. */
  readonly VITE_SESSION_RECORDING_ID?: string;
  /** The embedded survey form shown once to signed-in users. Absent: no survey. */
  readonly VITE_SURVEY_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
