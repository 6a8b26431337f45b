/**
 * Every locale Chrome's speech recognizer (the Web Speech API, Google's speech service behind it)
 * accepts as `SpeechRecognition.lang`, as BCP-47 tags in their canonical form: the list of
 * Chrome's own Web Speech API demo (https://www.google.com/intl/en/chrome/demos/speech.html),
 * which names Mandarin `cmn-Hans-CN` and `cmn-Hant-TW` (here `zh-CN` and `zh-TW`, the canonical
 * tags the recognizer also takes), with the Arabic, Hebrew and Persian locales of Google Cloud
 * Speech-to-Text's language support table (https://cloud.google.com/speech-to-text/docs/speech-to-text-supported-languages),
 * which the same service recognizes. The server accepts exactly these; the web app offers them.
 *
 * The first eight are the languages the product offered first: they are featured (shown first, and
 * named from a table in the home route's code, `FEATURED_RECOGNITION_LANGUAGES` in constants.ts);
 * the rest follow by tag. This module is big enough to stay out of the home route's first load:
 * the web app imports it only where the whole list is needed (the language search, the profile).
 */
export const RECOGNITION_LANGUAGES = [
  // Featured, in this order.
  'en-US', 'es-ES', 'pt-BR', 'fr-FR', 'ar-SA', 'he-IL', 'zh-CN', 'ru-RU',
  // The others, by tag.
  'af-ZA', 'am-ET',
  'ar-AE', 'ar-BH', 'ar-DZ', 'ar-EG', 'ar-IQ', 'ar-JO', 'ar-KW', 'ar-LB', 'ar-LY', 'ar-MA', 'ar-OM', 'ar-QA', 'ar-SY', 'ar-TN', 'ar-YE',
  'az-AZ', 'bg-BG', 'bn-BD', 'bn-IN', 'ca-ES', 'cs-CZ', 'da-DK', 'de-DE', 'el-GR',
  'en-AU', 'en-CA', 'en-GB', 'en-GH', 'en-IN', 'en-KE', 'en-NG', 'en-NZ', 'en-PH', 'en-TZ', 'en-ZA',
  'es-AR', 'es-BO', 'es-CL', 'es-CO', 'es-CR', 'es-DO', 'es-EC', 'es-GT', 'es-HN', 'es-MX', 'es-NI', 'es-PA', 'es-PE', 'es-PR',
  'es-PY', 'es-SV', 'es-US', 'es-UY', 'es-VE',
  'eu-ES', 'fa-IR', 'fi-FI', 'fil-PH', 'gl-ES', 'gu-IN', 'hi-IN', 'hr-HR', 'hu-HU', 'hy-AM', 'id-ID', 'is-IS', 'it-CH', 'it-IT',
  'ja-JP', 'jv-ID', 'ka-GE', 'km-KH', 'kn-IN', 'ko-KR', 'lo-LA', 'lt-LT', 'lv-LV', 'ml-IN', 'mr-IN', 'ms-MY', 'my-MM', 'nb-NO',
  'ne-NP', 'nl-NL', 'pl-PL', 'pt-PT', 'ro-RO', 'si-LK', 'sk-SK', 'sl-SI', 'sr-RS', 'su-ID', 'sv-SE', 'sw-KE', 'sw-TZ',
  'ta-IN', 'ta-LK', 'ta-MY', 'ta-SG', 'te-IN', 'th-TH', 'tr-TR', 'uk-UA', 'ur-IN', 'ur-PK', 'uz-UZ', 'vi-VN', 'yue-Hant-HK',
  'zh-TW', 'zu-ZA',
] as const;

export type RecognitionLanguage = (typeof RECOGNITION_LANGUAGES)[number];

const listed: ReadonlySet<string> = new Set(RECOGNITION_LANGUAGES);

/** Whether `value` is one of the recognition languages (exactly as listed: `en-US`, not `en-us`). */
export const isRecognitionLanguage = (value: unknown): value is RecognitionLanguage => typeof value === 'string' && listed.has(value);
