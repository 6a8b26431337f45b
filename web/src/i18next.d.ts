import 'i18next';
import type en from './locales/en.json';
import type enPages from './locales/en.pages.json';
import type billing from './features/billing/locales/en.json';
import type live from './features/live/locales/en.json';
import type accountData from './features/account-data/locales/en.json';
import type verifyEmail from './features/auth/locales/verify-email.en.json';
import type passkeys from './features/auth/locales/passkeys.en.json';
import type captionStyle from './components/caption-style/locales/en.json';
import type onDevice from './features/transcribe/on-device/locales/en.json';
import type captionTranslation from './components/translation/locales/en.json';

/** en.json with en.pages.json is the source of keys: a key missing there is a type error at every `t()` call. */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    /**
     * Feature namespaces, each registered when its (lazy) code loads: `billing` (features/billing/i18n.ts),
     * `live` (live caption sharing, features/live/i18n.ts), `captionStyle` (components/caption-style/i18n.ts),
     * `accountData` (the profile's Your data, features/account-data/i18n.ts), `verifyEmail` (the
     * email verification banner and page, features/auth/verify-email-i18n.ts), `passkeys` (passkey
     * sign-in and the profile's Passkeys section, features/auth/passkeys-i18n.ts), `onDevice`
     * (features/transcribe/on-device/i18n.ts), `captionTranslation` (translated captions, components/translation/i18n.ts).
     */
    resources: {
      translation: typeof en & typeof enPages;
      billing: typeof billing;
      live: typeof live;
      captionStyle: typeof captionStyle;
      accountData: typeof accountData;
      verifyEmail: typeof verifyEmail;
      passkeys: typeof passkeys;
      onDevice: typeof onDevice;
      captionTranslation: typeof captionTranslation;
    };
  }
}
