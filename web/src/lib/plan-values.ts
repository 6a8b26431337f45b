import { FREE_AUTOMATIC_PER_MONTH, RECOGNITION_LANGUAGE_COUNT, VISITOR_LIMIT_SECONDS } from '@app/shared/constants';

/**
 * The numbers the plan copy states, from the shared constants: the visitor's seconds a session,
 * the automatic transcriptions a free account keeps a month, and the languages of Pro (languages,
 * not locales). Every
 * text that states one takes it from here (`{{seconds}}`, `{{perMonth}}`, `{{languages}}`).
 */
export const PLAN_VALUES = {
  seconds: VISITOR_LIMIT_SECONDS,
  perMonth: FREE_AUTOMATIC_PER_MONTH,
  languages: RECOGNITION_LANGUAGE_COUNT,
} as const;

/** The free account's plan facts, in the order every page lists them (keys under `plans.free`). */
export const FREE_PLAN = ['noTimeLimit', 'language', 'automatic'] as const;
/** What Pro adds, in the order every page lists it (keys under `plans.pro`). */
export const PRO_PLAN = ['languages', 'automatic', 'save', 'export', 'darkTheme', 'badge'] as const;
