import {
  CAPTION_ALIGNS,
  CAPTION_EDGES,
  CAPTION_FONTS,
  CAPTION_LIMITS,
  CAPTION_WEIGHTS,
  HEX_COLOR,
  type CaptionAlign,
  type CaptionEdge,
  type CaptionFont,
  type CaptionPosition,
  type CaptionStyle,
} from '@app/shared/caption-style';

/** The width of the canvas an overlay is made for: its sizes are pixels of a 1920×1080 canvas. */
export const OVERLAY_CANVAS_WIDTH = 1920;

/** The style settings an overlay's address may override (docs/overlay.md lists them). */
export type OverlayOverrides = Partial<
  Pick<CaptionStyle, 'font' | 'size' | 'weight' | 'color' | 'background' | 'backgroundOpacity' | 'lines' | 'position' | 'align' | 'uppercase' | 'edge'>
>;

const POSITIONS: Record<string, CaptionPosition> = { top: 'top', middle: 'middle', bottom: 'bottom', 'lower-third': 'lowerThird', lowerthird: 'lowerThird' };
const ALIGNS: Record<string, CaptionAlign> = { left: 'start', right: 'end' };
const TRUE = new Set(['1', 'true', 'yes', 'on']);
const FALSE = new Set(['0', 'false', 'no', 'off']);

const oneOf = <T extends string | number>(list: readonly T[], value: string | number | undefined): T | undefined =>
  list.find((item) => item === value);

/** A whole number within [min, max], or undefined. */
function integer(value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined || !/^\d{1,4}$/.test(value.trim())) return undefined;
  const n = Number(value);
  return n >= min && n <= max ? n : undefined;
}

/** `#rrggbb` from `#rrggbb` or `rrggbb` (the `#` is `%23` in an address), lower case; else undefined. */
function color(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const hex = value.trim().startsWith('#') ? value.trim() : `#${value.trim()}`;
  return HEX_COLOR.test(hex) ? hex.toLowerCase() : undefined;
}

function flag(value: string | undefined): boolean | undefined {
  const v = value?.trim().toLowerCase();
  return v === undefined ? undefined : TRUE.has(v) ? true : FALSE.has(v) ? false : undefined;
}

/**
 * The overrides in an overlay's query string (`?lines=2&position=lower-third`): each setting
 * that is known and valid; an unknown name or a bad value is left out (the speaker's setting
 * stays). `bg=transparent` is a background opacity of 0; `opacity` (0 to 1) is the background's.
 * `outline=1` and `shadow=1` are short for `edge=outline` and `edge=shadow`.
 */
export function parseOverlayQuery(search: string): OverlayOverrides {
  const query = new URLSearchParams(search);
  const get = (name: string) => query.get(name) ?? undefined;
  const out: OverlayOverrides = {};

  const font = oneOf<CaptionFont>(CAPTION_FONTS, get('font')?.trim().toLowerCase());
  if (font) out.font = font;
  const size = integer(get('size'), CAPTION_LIMITS.size.min, CAPTION_LIMITS.size.max);
  if (size !== undefined) out.size = size;
  const weight = oneOf<number>(CAPTION_WEIGHTS, integer(get('weight'), 0, 1000));
  if (weight !== undefined) out.weight = weight as CaptionStyle['weight'];
  const text = color(get('color'));
  if (text) out.color = text;

  const bg = get('bg')?.trim().toLowerCase();
  if (bg === 'transparent' || bg === 'none') out.backgroundOpacity = 0;
  else if (color(bg)) out.background = color(bg);
  const opacity = get('opacity')?.trim();
  if (opacity && /^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(opacity) && out.backgroundOpacity === undefined) out.backgroundOpacity = Number(opacity);

  const lines = integer(get('lines'), CAPTION_LIMITS.lines.min, CAPTION_LIMITS.lines.max);
  if (lines !== undefined) out.lines = lines;
  const position = get('position')?.trim().toLowerCase() ?? '';
  if (Object.hasOwn(POSITIONS, position)) out.position = POSITIONS[position];
  const alignValue = get('align')?.trim().toLowerCase() ?? '';
  const align = oneOf<CaptionAlign>(CAPTION_ALIGNS, alignValue) ?? (Object.hasOwn(ALIGNS, alignValue) ? ALIGNS[alignValue] : undefined);
  if (align) out.align = align;
  const uppercase = flag(get('uppercase'));
  if (uppercase !== undefined) out.uppercase = uppercase;

  const edge =
    oneOf<CaptionEdge>(CAPTION_EDGES, get('edge')?.trim().toLowerCase()) ??
    (flag(get('outline')) ? 'outline' : flag(get('shadow')) ? 'shadow' : flag(get('outline')) === false || flag(get('shadow')) === false ? 'none' : undefined);
  if (edge) out.edge = edge;
  return out;
}

/** The speaker's style with the address's overrides. */
export const overlayStyle = (speaker: CaptionStyle, overrides: OverlayOverrides): CaptionStyle => ({ ...speaker, ...overrides });
