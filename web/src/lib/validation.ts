import type { z } from 'zod';
import { EMAIL_MAX, NAME_MAX, PASSWORD_MAX, PASSWORD_MIN } from '@app/shared/constants';
import { i18n } from './i18n';

/** The form fields validated with the shared schemas, each with its own wording. */
export type FieldKind = 'name' | 'email' | 'password' | 'newPassword';

function messageFor(kind: FieldKind, issue: z.core.$ZodIssue, blank: boolean): string {
  const tooSmall = issue.code === 'too_small';
  const empty = blank || (tooSmall && Number(issue.minimum) <= 1);
  switch (kind) {
    case 'name':
      if (empty) return i18n.t('validation.nameRequired');
      if (issue.code === 'too_big') return i18n.t('validation.nameTooLong', { max: NAME_MAX });
      break;
    case 'email':
      if (empty) return i18n.t('validation.emailRequired');
      if (issue.code === 'too_big') return i18n.t('validation.emailTooLong', { max: EMAIL_MAX });
      return i18n.t('validation.emailInvalid');
    case 'password':
    case 'newPassword':
      if (empty) return i18n.t('validation.passwordRequired');
      if (tooSmall) return i18n.t('validation.passwordMin', { min: PASSWORD_MIN });
      if (issue.code === 'too_big') return i18n.t('validation.passwordMax', { max: PASSWORD_MAX });
      if (issue.code === 'custom') return i18n.t('validation.passwordCommon');
      break;
  }
  return issue.message;
}

/**
 * Validates one value with the shared zod schema for that field (the same one the
 * server uses) and returns the translated message of its first issue, if any.
 */
export function validateField(kind: FieldKind, schema: z.ZodType, value: unknown): string | undefined {
  const result = schema.safeParse(value);
  if (result.success) return undefined;
  const issue = result.error.issues[0];
  const blank = typeof value === 'string' && value.trim() === '';
  return issue ? messageFor(kind, issue, blank) : undefined;
}

/** Field errors keyed by field name; only failing fields present. */
export type FieldErrors<F extends string> = Partial<Record<F, string>>;

export const hasErrors = (errors: Record<string, string | undefined>): boolean => Object.values(errors).some(Boolean);
