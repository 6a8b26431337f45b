import i18n, { type BackendModule, type LanguageDetectorModule, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { FALLBACK_UI_LANGUAGE, STORAGE_KEYS, UI_LANGUAGES, type UiLanguage } from '@app/shared/constants';
import en from '../locales/en.json';

/**
 * English is bundled (the fallback and the typed source of keys) with the copy of the home
 * route and the layout; the copy only other pages use (en.pages.json) loads with them
 * (`loadPageCopy`). Portuguese and Spanish are separate chunks, each whole, loaded when needed,
 * so the home route stays small.
 */
const loaders: Record<UiLanguage, () => Promise<unknown>> = {
  en: async () => en,
  pt: async () => (await import('../locales/pt.json')).default,
  es: async () => (await import('../locales/es.json')).default,
};

export const isUiLanguage = (value: unknown): value is UiLanguage =>
  typeof value === 'string' && (UI_LANGUAGES as readonly string[]).includes(value);

type Copy = object;
type CopyLoader = () => Promise<{ default: Copy }>;
/** Features' copies that load when first used in a language (addNamespace). */
const namespaceLoaders = new Map<string, Partial<Record<UiLanguage, CopyLoader>>>();

const localeBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    if (!isUiLanguage(language)) return callback(null, {});
    const loadCopy = namespaceLoaders.get(namespace)?.[language];
    const load = namespace === 'translation' ? loaders[language] : loadCopy ? async () => (await loadCopy()).default : undefined;
    if (!load) return callback(null, {});
    load().then(
      (data) => callback(null, data as Record<string, unknown>),
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), false),
    );
  },
};

/** The primary subtag (`pt-BR` -> `pt`) when it is a UI language. */
function uiLanguageOf(tag: string | null | undefined): UiLanguage | undefined {
  const primary = tag?.split('-')[0]?.toLowerCase();
  return isUiLanguage(primary) ? primary : undefined;
}

/**
 * The UI language: the one chosen before on this device, else the first of the browser's
 * languages the app speaks, else English.
 */
export function detectUiLanguage(): UiLanguage {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(STORAGE_KEYS.uiLanguage);
  } catch {
    // Storage blocked: the browser's languages decide.
  }
  const browser = typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
  return uiLanguageOf(stored) ?? browser.map(uiLanguageOf).find(Boolean) ?? FALLBACK_UI_LANGUAGE;
}

/** Detects the UI language at start; the language in use is kept for the next visit. */
const languageDetector: LanguageDetectorModule = {
  type: 'languageDetector',
  detect: detectUiLanguage,
  cacheUserLanguage(language: string) {
    try {
      localStorage.setItem(STORAGE_KEYS.uiLanguage, language);
    } catch {
      // Storage blocked or full: the choice lasts this visit.
    }
  },
};

/** Keeps `<html lang>` and the description in step with the UI language. */
function applyDocumentLanguage(language: string): void {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = language;
  document.querySelector('meta[name="description"]')?.setAttribute('content', i18n.t('app.description'));
}

i18n.on('languageChanged', applyDocumentLanguage);

let ready: Promise<unknown> | undefined;

/**
 * Starts i18next (once) and resolves when the detected language is loaded: render after it
 * to avoid a flash of English. main.tsx calls it in a task of its own, after the page chunk
 * has been asked for, so start-up work comes in short tasks.
 */
export function initI18n(): Promise<unknown> {
  ready ??= i18n
    .use(localeBackend)
    .use(languageDetector)
    .use(initReactI18next)
    .init({
      resources: { en: { translation: en } },
      partialBundledLanguages: true,
      supportedLngs: [...UI_LANGUAGES],
      fallbackLng: FALLBACK_UI_LANGUAGE,
      load: 'languageOnly',
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  return ready;
}

/**
 * Registers a feature's copy as its own namespace in every UI language, for features that load
 * lazily with their copy. A copy given as a loader (`() => import('./locales/pt.json')`) is its
 * own chunk, fetched the first time the namespace is used in that language (`useTranslation`
 * suspends until it is here; `i18n.loadNamespaces` waits for it). A module may load before
 * i18next starts (tests): it registers then.
 */
export function addNamespace(namespace: string, copies: Record<UiLanguage, Copy | CopyLoader>): void {
  const lazyCopies: Partial<Record<UiLanguage, CopyLoader>> = {};
  for (const language of UI_LANGUAGES) {
    const copy = copies[language];
    if (typeof copy === 'function') lazyCopies[language] = copy as CopyLoader;
  }
  namespaceLoaders.set(namespace, lazyCopies);
  const add = () => {
    for (const [language, copy] of Object.entries(copies)) {
      if (typeof copy !== 'function' && !i18n.hasResourceBundle(language, namespace)) i18n.addResourceBundle(language, namespace, copy);
    }
  };
  if (i18n.isInitialized) add();
  else i18n.on('initialized', add);
}

let pageCopy: Promise<void> | undefined;

/** Adds the English copy of the pages other than home; every page but home loads it first. */
export function loadPageCopy(): Promise<void> {
  pageCopy ??= import('../locales/en.pages.json').then(
    (module) => void i18n.addResourceBundle('en', 'translation', module.default, true, false),
    (err: unknown) => {
      pageCopy = undefined;
      throw err;
    },
  );
  return pageCopy;
}

/** A lazily loaded module that shows the pages' copy: it resolves once both are here. */
export function withPageCopy<T>(load: () => Promise<T>): () => Promise<T> {
  return () => Promise.all([load(), loadPageCopy()]).then(([module]) => module);
}

/** The UI language in use, always one of UI_LANGUAGES. */
export function currentUiLanguage(): UiLanguage {
  const lng = i18n.resolvedLanguage ?? i18n.language;
  return isUiLanguage(lng) ? lng : FALLBACK_UI_LANGUAGE;
}

export { i18n };
