/** Autosave problems are logged, never shown. */
export const warn = (...args: unknown[]) => console.warn('[autosave]', ...args);
