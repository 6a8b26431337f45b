import type { OnDeviceRecognition, SpeechRecognitionConstructor } from './speech-recognition';

/* Only the lazily loaded on-device code imports this module, so none of it is in the home route's first load. */

/** The recognizer's on-device methods (feature-detected: both statics present), or undefined. */
export function getOnDeviceRecognition(Recognition: SpeechRecognitionConstructor | undefined): OnDeviceRecognition | undefined {
  if (!Recognition || typeof Recognition.available !== 'function' || typeof Recognition.install !== 'function') return undefined;
  return {
    available: (options) => Recognition.available!(options),
    install: (options) => Recognition.install!(options),
  };
}

/** Errors meaning on-device recognition is missing for the language (no pack, or not allowed): the cloud recognizer may still work. */
export const ON_DEVICE_MISSING_ERRORS: readonly string[] = ['service-not-allowed', 'language-not-supported'];
