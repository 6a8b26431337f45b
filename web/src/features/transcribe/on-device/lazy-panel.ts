import { i18n } from '../../../lib/i18n';
import { lazyWithPreload } from '../../../lib/lazy-preload';
import { getSpeechRecognition } from '../engine/speech-recognition';

/** The browser has on-device recognition (the Web Speech API draft's `available()`): the card shows its panel. */
export function onDeviceOffered(): boolean {
  return typeof getSpeechRecognition()?.available === 'function';
}

/** The on-device panel with its copy in the UI language: its own chunk, outside the home route's first load where the browser lacks the API. */
export const OnDevicePanel = lazyWithPreload(() =>
  import('./on-device-panel').then(async (module) => {
    await i18n.loadNamespaces('onDevice');
    return module;
  }),
);

/**
 * Where the browser has on-device recognition, loads the panel beside the home page, so the card's
 * first render has it and nothing shifts when it appears. A failed load does not hold the page
 * back: the card tries again when it renders.
 */
export function preloadOnDevicePanel(): Promise<unknown> {
  return onDeviceOffered() ? OnDevicePanel.preload().catch(() => undefined) : Promise.resolve();
}
