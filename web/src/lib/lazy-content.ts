import type { UiLanguage } from '@app/shared/constants';

/**
 * Long page text (terms, help answers) lives beside the page, one chunk per language, so the
 * locale bundled in every page stays small. Each language loads once; once loaded, it is
 * returned synchronously (no suspending again).
 */
export function lazyContent<T>(loaders: Record<UiLanguage, () => Promise<{ default: unknown }>>) {
  const pending = new Map<UiLanguage, Promise<T>>();
  const loaded = new Map<UiLanguage, T>();
  const load = (language: UiLanguage): Promise<T> => {
    let promise = pending.get(language);
    if (!promise) {
      promise = loaders[language]().then((m) => {
        loaded.set(language, m.default as T);
        return m.default as T;
      });
      promise.catch(() => pending.delete(language));
      pending.set(language, promise);
    }
    return promise;
  };
  return { load, loaded: (language: UiLanguage): T | undefined => loaded.get(language) };
}

/** Fills `{{name}}` placeholders from `values` (unknown names are left as they are). */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, key: string) => (key in values ? String(values[key]) : match));
}
