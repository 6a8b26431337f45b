/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** reCAPTCHA v3 site key; empty locally, where the test token is sent instead. */
  readonly VITE_RECAPTCHA_SITE_KEY?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
