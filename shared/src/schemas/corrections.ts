import * as z from 'zod';
import {
  CORRECTION_TEXT_MAX,
  CORRECTIONS_MAX,
  PARAGRAPH_SILENCE_MAX_SECONDS,
  PARAGRAPH_SILENCE_MIN_SECONDS,
  PROFANITY_MODES,
} from '../constants.ts';

/** Text corrections applied to recognized text as it arrives (web/src/lib/text-corrections.ts). */

export const profanityMode = z.enum(PROFANITY_MODES);

export const replacement = z
  .object({
    phrase: z
      .string()
      .trim()
      .min(1, 'A replacement needs a phrase')
      .max(CORRECTION_TEXT_MAX, `A phrase must be at most ${CORRECTION_TEXT_MAX} characters`),
    replacement: z.string().trim().max(CORRECTION_TEXT_MAX, `A replacement must be at most ${CORRECTION_TEXT_MAX} characters`),
  })
  .strict();
export type Replacement = z.infer<typeof replacement>;

export const correctionSettings = z
  .object({
    replacements: z.array(replacement).max(CORRECTIONS_MAX, `At most ${CORRECTIONS_MAX} replacements`),
    /** What the speaker's own transcript shows (and so what is saved). */
    profanity: profanityMode,
    /** What viewers of the speaker's live shares see. */
    shareProfanity: profanityMode,
    /** Spoken commands ("new paragraph", "comma"…) in the recognition languages that have them. */
    voiceCommands: z.boolean(),
    /** Seconds of silence before a final result that start a new paragraph; null: never. */
    paragraphSilence: z
      .number()
      .int('The paragraph silence is a whole number of seconds')
      .min(PARAGRAPH_SILENCE_MIN_SECONDS, `The paragraph silence is at least ${PARAGRAPH_SILENCE_MIN_SECONDS} s`)
      .max(PARAGRAPH_SILENCE_MAX_SECONDS, `The paragraph silence is at most ${PARAGRAPH_SILENCE_MAX_SECONDS} s`)
      .nullable(),
  })
  .strict();
export type CorrectionSettings = z.infer<typeof correctionSettings>;
