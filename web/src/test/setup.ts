import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { toast } from 'sonner';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { i18n, initI18n, loadPageCopy } from '../lib/i18n';

// findBy* and waitFor wait for what renders after lazy chunks and effects. Testing Library's 1 s
// default was measured too short on a 2-core machine running the browser journeys beside these
// (a lazily loaded user menu took longer): a wait ends as soon as its element shows, so a longer
// limit costs nothing when the machine is quiet.
configure({ asyncUtilTimeout: 5_000 });

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

// jsdom lays nothing out, so it has no scrollIntoView; the card calls it when a session starts.
if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => undefined;

beforeAll(async () => {
  await initI18n();
  await loadPageCopy();
  await i18n.changeLanguage('en');
});

// A promise rejection nobody handles fails the test during which it surfaced (vitest also
// reports it as an error of the whole run; that must never be turned off).
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
process.on('unhandledRejection', onUnhandled);
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
});

afterEach(async () => {
  cleanup();
  // sonner keeps toasts in module state and replays active ones to a new <Toaster>.
  toast.dismiss();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.localStorage.clear();
  window.sessionStorage.clear();
  await i18n.changeLanguage('en');
  // Node reports a rejection once the microtasks after it have run: one macrotask later.
  await new Promise((resolve) => setTimeout(resolve, 0));
  const reasons = unhandled.splice(0);
  if (reasons.length) throw new Error(`Unhandled promise rejection during this test: ${reasons.map((r) => (r instanceof Error ? r.stack ?? r.message : String(r))).join('\n')}`);
});
