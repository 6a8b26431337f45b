import * as z from 'zod';
import {
  CAPTION_ALIGNS,
  CAPTION_EDGES,
  CAPTION_FONTS,
  CAPTION_INTERIM,
  CAPTION_LIMITS,
  CAPTION_POSITIONS,
  CAPTION_WEIGHTS,
  HEX_COLOR,
  type CaptionStyle,
} from '../caption-style.ts';

/** The caption style (caption-style.ts), as the account, the device and live shares keep it. */

const color = (what: string) => z.string().regex(HEX_COLOR, `The ${what} must be a colour like #ffcc00`);
const range = (what: string, { min, max }: { min: number; max: number }, unit = '') =>
  z
    .number(`The ${what} must be a number`)
    .min(min, `The ${what} is at least ${min}${unit}`)
    .max(max, `The ${what} is at most ${max}${unit}`);
const oneOf = <T extends readonly [string, ...string[]]>(what: string, values: T) =>
  z.enum(values, `The ${what} must be one of ${values.join(', ')}`);

export const captionStyle = z
  .object({
    font: oneOf('font', CAPTION_FONTS),
    size: range('size', CAPTION_LIMITS.size, ' px').int('The size is a whole number of pixels'),
    lineHeight: range('line height', CAPTION_LIMITS.lineHeight),
    letterSpacing: range('letter spacing', CAPTION_LIMITS.letterSpacing, ' em'),
    weight: z.union(
      CAPTION_WEIGHTS.map((w) => z.literal(w)),
      `The weight must be one of ${CAPTION_WEIGHTS.join(', ')}`,
    ),
    uppercase: z.boolean('uppercase must be true or false'),
    color: color('text colour'),
    background: color('background colour'),
    backgroundOpacity: range('background opacity', CAPTION_LIMITS.backgroundOpacity),
    edge: oneOf('edge', CAPTION_EDGES),
    align: oneOf('alignment', CAPTION_ALIGNS),
    position: oneOf('position', CAPTION_POSITIONS),
    lines: range('number of lines', CAPTION_LIMITS.lines).int('The number of lines is a whole number'),
    interim: oneOf('interim text setting', CAPTION_INTERIM),
  })
  .strict() satisfies z.ZodType<CaptionStyle>;

/** The caller's saved style; null until they save one (the device's style applies meanwhile). */
export const captionStyleResponse = z.object({ style: captionStyle.nullable() });
export const savedCaptionStyleResponse = z.object({ style: captionStyle });
