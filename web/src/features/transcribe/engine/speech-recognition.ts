/**
 * The standard Web Speech API recognition interface, as far as the engine uses it.
 * TypeScript's DOM library has the event types but not the recognizer itself.
 */
export interface SpeechRecognitionLike {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  maxAlternatives: number;
  /** Recognition must run on this device (Web Speech API draft); unknown to browsers without on-device recognition. */
  processLocally?: boolean;
  onresult: ((event: SpeechRecognitionEvent) => void) | null;
  onerror: ((event: SpeechRecognitionErrorEvent) => void) | null;
  onend: ((event: Event) => void) | null;
  onstart: ((event: Event) => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}

/**
 * `SpeechRecognition.available()`'s answer (Web Speech API draft): for `processLocally: true`,
 * whether the language pack is on the device, can be downloaded, is downloading, or does not exist.
 */
export type OnDeviceAvailability = 'available' | 'downloadable' | 'downloading' | 'unavailable';

/** The draft's `SpeechRecognitionOptions` dictionary. */
export interface SpeechRecognitionOptions {
  langs: string[];
  processLocally?: boolean;
}

/** The draft's static methods for on-device recognition. */
export interface OnDeviceRecognition {
  available(options: SpeechRecognitionOptions): Promise<OnDeviceAvailability>;
  /** Resolves true once the packs are installed (or already were), false otherwise; needs a user gesture. */
  install(options: SpeechRecognitionOptions): Promise<boolean>;
}

export type SpeechRecognitionConstructor = (new () => SpeechRecognitionLike) & Partial<OnDeviceRecognition>;

type SpeechWindow = {
  SpeechRecognition?: SpeechRecognitionConstructor;
  webkitSpeechRecognition?: SpeechRecognitionConstructor;
};

/** `window.SpeechRecognition || window.webkitSpeechRecognition`, or undefined when the browser has neither. */
export function getSpeechRecognition(win: object | undefined = typeof window === 'undefined' ? undefined : window): SpeechRecognitionConstructor | undefined {
  const w = win as SpeechWindow | undefined;
  return w?.SpeechRecognition ?? w?.webkitSpeechRecognition;
}
