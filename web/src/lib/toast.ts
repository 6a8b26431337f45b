import { useSyncExternalStore } from 'react';
import type { ExternalToast } from 'sonner';

/**
 * Toasts without sonner in the first load: the library (and the app's `<Toaster>`, see
 * `useToasterWanted`) loads with the first toast. sonner keeps toasts in module state and
 * shows the active ones to a `<Toaster>` that mounts later, so nothing shown early is lost.
 * Once loaded, every call is synchronous, in the order made.
 */
type Sonner = typeof import('sonner');
type Kind = 'success' | 'error' | 'info' | 'warning';

let sonner: Sonner | undefined;
let loading: Promise<Sonner> | undefined;
let wanted = false;
const listeners = new Set<() => void>();

function load(): Promise<Sonner> {
  loading ??= import('sonner').then((module) => (sonner = module));
  return loading;
}

function want(): void {
  if (wanted) return;
  wanted = true;
  for (const listener of listeners) listener();
}

function show(kind: Kind, message: string, options?: ExternalToast): void {
  want();
  if (sonner) {
    sonner.toast[kind](message, options);
    return;
  }
  // A failed load (offline, new deploy) drops the toast: it never takes the page down.
  load().then(
    (module) => module.toast[kind](message, options),
    () => {},
  );
}

export const toast = {
  success: (message: string, options?: ExternalToast) => show('success', message, options),
  error: (message: string, options?: ExternalToast) => show('error', message, options),
  info: (message: string, options?: ExternalToast) => show('info', message, options),
  warning: (message: string, options?: ExternalToast) => show('warning', message, options),
  /** Closes one toast, or all of them; nothing to close before the first toast. */
  dismiss: (id?: string | number) => sonner?.toast.dismiss(id),
};

/** True once a toast was asked for: the layout then mounts the (lazily loaded) `<Toaster>`. */
export function useToasterWanted(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => wanted,
    () => false,
  );
}

/** The `<Toaster>` component, for `React.lazy`. */
export const loadToaster = () => load().then((module) => ({ default: module.Toaster }));
