/**
 * The caption style: how captions look in caption mode, on a live share's viewer page and in any
 * other caption surface (an overlay). A plain data object (saved on the account, on the device,
 * carried by live shares) and `captionCss`, the one function that turns it into CSS properties.
 * No zod and no DOM here: the schema lives in schemas/caption-style.ts, and any page can use this.
 */

/**
 * Where the device keeps the style (a visitor's, or a signed-in user's until they save one) and a
 * live viewer's own size and colours, as JSON. Here, not in STORAGE_KEYS, so the first load
 * (which carries the constants) does not carry them.
 */
export const CAPTION_STORAGE_KEYS = { style: 'caption_style', liveViewer: 'live_viewer_style' } as const;

export const CAPTION_FONTS = ['sans', 'serif', 'mono', 'atkinson', 'opendyslexic'] as const;
export type CaptionFont = (typeof CAPTION_FONTS)[number];
/** The fonts the app ships itself (self-hosted, loaded only when chosen). */
export const WEB_FONTS: readonly CaptionFont[] = ['atkinson', 'opendyslexic'];
export const CAPTION_WEIGHTS = [400, 500, 600, 700, 800] as const;
export type CaptionWeight = (typeof CAPTION_WEIGHTS)[number];
export const CAPTION_EDGES = ['none', 'outline', 'shadow'] as const;
export type CaptionEdge = (typeof CAPTION_EDGES)[number];
/** Start and end follow the text's direction (right-to-left languages start on the right). */
export const CAPTION_ALIGNS = ['start', 'center', 'end'] as const;
export type CaptionAlign = (typeof CAPTION_ALIGNS)[number];
/** Where the captions sit: the top, the middle, the bottom edge, or from two thirds down (lower third). */
export const CAPTION_POSITIONS = ['top', 'middle', 'bottom', 'lowerThird'] as const;
export type CaptionPosition = (typeof CAPTION_POSITIONS)[number];
/** Interim (not yet final) words: shown dimmed, or not shown until final. */
export const CAPTION_INTERIM = ['dimmed', 'hidden'] as const;
export type CaptionInterim = (typeof CAPTION_INTERIM)[number];

export const CAPTION_LIMITS = {
  /** Font size in CSS pixels. */
  size: { min: 16, max: 160 },
  lineHeight: { min: 1, max: 2 },
  /** Letter spacing in em. */
  letterSpacing: { min: -0.05, max: 0.3 },
  backgroundOpacity: { min: 0, max: 1 },
  /** Lines of text kept on screen. */
  lines: { min: 1, max: 12 },
} as const;

/** A colour as `#rrggbb` (lower or upper case). */
export const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

export interface CaptionStyle {
  font: CaptionFont;
  size: number;
  lineHeight: number;
  letterSpacing: number;
  weight: CaptionWeight;
  uppercase: boolean;
  color: string;
  background: string;
  backgroundOpacity: number;
  edge: CaptionEdge;
  align: CaptionAlign;
  position: CaptionPosition;
  lines: number;
  interim: CaptionInterim;
}

/** Colour pairs offered first (each well above 4.5:1); any other pair can be picked too. */
export const COLOR_PRESETS = {
  whiteOnBlack: { color: '#ffffff', background: '#000000' },
  yellowOnBlack: { color: '#fde047', background: '#000000' },
  blackOnWhite: { color: '#000000', background: '#ffffff' },
  blackOnYellow: { color: '#000000', background: '#fde047' },
  whiteOnBlue: { color: '#ffffff', background: '#1e3a8a' },
} as const;
export type ColorPreset = keyof typeof COLOR_PRESETS;

export const DEFAULT_CAPTION_STYLE: CaptionStyle = {
  font: 'sans',
  size: 52,
  lineHeight: 1.25,
  letterSpacing: 0,
  weight: 600,
  uppercase: false,
  ...COLOR_PRESETS.whiteOnBlack,
  backgroundOpacity: 1,
  edge: 'none',
  align: 'start',
  position: 'bottom',
  lines: 4,
  interim: 'dimmed',
};

/** WCAG 2's minimum contrast for normal text (level AA); lower pairs are flagged. */
export const MIN_CONTRAST = 4.5;

export const FONT_STACKS: Record<CaptionFont, string> = {
  sans: 'ui-sans-serif, system-ui, sans-serif',
  serif: 'ui-serif, Georgia, Cambria, "Times New Roman", serif',
  mono: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  atkinson: '"Atkinson Hyperlegible", ui-sans-serif, system-ui, sans-serif',
  opendyslexic: 'OpenDyslexic, ui-sans-serif, system-ui, sans-serif',
};

function channels(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** WCAG 2 relative luminance of a `#rrggbb` colour. */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two `#rrggbb` colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The background as shown: its colour at its opacity over black (what caption surfaces paint beneath). */
export function shownBackground(style: Pick<CaptionStyle, 'background' | 'backgroundOpacity'>): string {
  const hex = channels(style.background)
    .map((c) => Math.round(c * style.backgroundOpacity).toString(16).padStart(2, '0'))
    .join('');
  return `#${hex}`;
}

/** The contrast of the text against the background as shown (shownBackground). */
export const captionContrast = (style: Pick<CaptionStyle, 'color' | 'background' | 'backgroundOpacity'>) =>
  contrastRatio(style.color, shownBackground(style));

/** CSS properties by name (camelCase, as React's `style` and `CSSStyleDeclaration` take them). */
export interface CaptionCss {
  /** The area captions are placed in (a grid of one cell, or two rows for the lower third). */
  area: {
    display: 'grid';
    gridTemplateRows: string;
    backgroundColor: string;
  };
  /** The caption block: type, colours, edge, alignment, and at most `lines` lines tall (the newest kept). */
  block: {
    gridRow: number;
    alignSelf: 'start' | 'center' | 'end';
    display: 'flex';
    flexDirection: 'column';
    justifyContent: 'flex-end';
    overflow: 'hidden';
    maxHeight: string;
    fontFamily: string;
    fontSize: string;
    lineHeight: number;
    letterSpacing: string;
    fontWeight: number;
    textTransform: 'uppercase' | 'none';
    textAlign: CaptionAlign;
    color: string;
    textShadow: string;
    padding: string;
  };
  /** Interim words inside the block. */
  interim: { opacity: number } | { display: 'none' };
}

const rgba = (hex: string, alpha: number) => `rgba(${channels(hex).join(', ')}, ${alpha})`;

/** A contrasting edge: black around light text, white around dark text. */
const edgeColor = (color: string) => (relativeLuminance(color) > 0.4 ? '#000000' : '#ffffff');

function textShadow(style: CaptionStyle): string {
  if (style.edge === 'none') return 'none';
  const edge = edgeColor(style.color);
  if (style.edge === 'shadow') return `0.06em 0.06em 0.12em ${rgba(edge, 0.9)}`;
  const w = '0.04em';
  return [`-${w} -${w}`, `0 -${w}`, `${w} -${w}`, `-${w} 0`, `${w} 0`, `-${w} ${w}`, `0 ${w}`, `${w} ${w}`].map((offset) => `${offset} 0 ${edge}`).join(', ');
}

/** Vertical padding of the block, in em: its height holds `lines` lines plus this twice. */
const PAD_EM = 0.15;

/**
 * The style as CSS properties: `area` for the surface the captions fill, `block` for the element
 * holding the text (its newest `lines` lines show: older ones overflow upwards, clipped), `interim`
 * for the words not yet final. The area paints the background at its opacity (over the black of
 * caption surfaces, or over whatever an overlay sits on).
 */
export function captionCss(style: CaptionStyle): CaptionCss {
  const lowerThird = style.position === 'lowerThird';
  return {
    area: {
      display: 'grid',
      gridTemplateRows: lowerThird ? 'minmax(0, 2fr) minmax(0, 1fr)' : 'minmax(0, 1fr)',
      backgroundColor: rgba(style.background, style.backgroundOpacity),
    },
    block: {
      gridRow: lowerThird ? 2 : 1,
      alignSelf: style.position === 'top' || lowerThird ? 'start' : style.position === 'middle' ? 'center' : 'end',
      display: 'flex',
      flexDirection: 'column',
      justifyContent: 'flex-end',
      overflow: 'hidden',
      maxHeight: `${round(style.lines * style.lineHeight + 2 * PAD_EM)}em`,
      fontFamily: FONT_STACKS[style.font],
      fontSize: `${style.size}px`,
      lineHeight: style.lineHeight,
      letterSpacing: `${style.letterSpacing}em`,
      fontWeight: style.weight,
      textTransform: style.uppercase ? 'uppercase' : 'none',
      textAlign: style.align,
      color: style.color,
      textShadow: textShadow(style),
      padding: `${PAD_EM}em 0.4em`,
    },
    interim: style.interim === 'hidden' ? { display: 'none' } : { opacity: 0.7 },
  };
}

const round = (n: number) => Math.round(n * 1000) / 1000;
