import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, beforeAll, vi } from 'vitest';
import { i18n, i18nReady } from '../lib/i18n';

// jsdom lacks matchMedia; some components ask for it.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

beforeAll(async () => {
  await i18nReady;
  await i18n.changeLanguage('en');
});

afterEach(async () => {
  cleanup();
  // sonner keeps toasts in module state and replays active ones to a new <Toaster>.
  toast.dismiss();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.localStorage.clear();
  await i18n.changeLanguage('en');
});
