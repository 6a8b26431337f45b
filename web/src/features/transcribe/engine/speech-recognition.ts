/**
 * The standard Web Speech API recognition interface, as far as the engine uses it.
 * TypeScript's DOM library has the event types but not the recognizer itself.
 */
export interface SpeechRecognitionLike {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  maxAlternatives: number;
  onresult: ((event: SpeechRecognitionEvent) => void) | null;
  onerror: ((event: SpeechRecognitionErrorEvent) => void) | null;
  onend: ((event: Event) => void) | null;
  onstart: ((event: Event) => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}

export type SpeechRecognitionConstructor = new () => SpeechRecognitionLike;

type SpeechWindow = {
  SpeechRecognition?: SpeechRecognitionConstructor;
  webkitSpeechRecognition?: SpeechRecognitionConstructor;
};

/** `window.SpeechRecognition || window.webkitSpeechRecognition`, or undefined when the browser has neither. */
export function getSpeechRecognition(win: object | undefined = typeof window === 'undefined' ? undefined : window): SpeechRecognitionConstructor | undefined {
  const w = win as SpeechWindow | undefined;
  return w?.SpeechRecognition ?? w?.webkitSpeechRecognition;
}
