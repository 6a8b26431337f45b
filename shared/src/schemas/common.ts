import * as z from 'zod';
import { EMAIL_MAX } from '../constants.ts';

/** Every error answer: `{error}` plus optional machine-readable details. */
export const errorResponse = z.object({
  error: z.string(),
  /** Stable identifier the web app translates; `error` is the English fallback. */
  code: z.string().optional(),
  requiresPro: z.boolean().optional(),
  secondsLeft: z.number().int().optional(),
  length: z.number().int().optional(),
  /** An edit's 409 `version_conflict`: the version the server holds now. */
  version: z.number().int().optional(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

export const emptyObject = z.object({}).strict();
export const okResponse = z.object({ ok: z.literal(true) });

export const email = z
  .string()
  .trim()
  .min(1, 'Email is required')
  .max(EMAIL_MAX, 'Email is too long')
  .pipe(z.email('Enter a valid email address'));

/** The form an email takes as a uniqueness key: trimmed, lower-cased, NFC. */
export function normaliseEmail(value: string): string {
  return value.trim().normalize('NFC').toLowerCase();
}
