import { CAPTION_LIMITS, CAPTION_STORAGE_KEYS, COLOR_PRESETS, DEFAULT_CAPTION_STYLE, type CaptionStyle, type ColorPreset } from '@app/shared/caption-style';
import { readStorage, writeStorage } from '../../../lib/storage';

/**
 * A viewer's own size and colours over the speaker's caption style, kept on the viewer's device
 * for every live link; none means the speaker's style as it is.
 */
export interface ViewerOverrides {
  size?: number;
  colors?: ColorPreset;
}

/** What a share without a style of its speaker's shows: the page's own look, light on dark. */
export const VIEWER_DEFAULT_STYLE: CaptionStyle = { ...DEFAULT_CAPTION_STYLE, size: 30, weight: 500, lineHeight: 1.375 };

/** A−/A+ step through these sizes (px); a size between two steps goes to the next one. */
export const VIEWER_SIZES = [16, 20, 24, 30, 36, 44, 52, 64, 76, 92, 110] as const;

const isPreset = (value: unknown): value is ColorPreset => typeof value === 'string' && Object.hasOwn(COLOR_PRESETS, value);
const isSize = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) >= CAPTION_LIMITS.size.min && (value as number) <= CAPTION_LIMITS.size.max;

export function readViewerOverrides(): ViewerOverrides {
  try {
    const raw = JSON.parse(readStorage(CAPTION_STORAGE_KEYS.liveViewer) ?? '{}') as Record<string, unknown>;
    return { ...(isSize(raw.size) && { size: raw.size }), ...(isPreset(raw.colors) && { colors: raw.colors }) };
  } catch {
    return {};
  }
}

export function writeViewerOverrides(overrides: ViewerOverrides): void {
  writeStorage(CAPTION_STORAGE_KEYS.liveViewer, overrides.size || overrides.colors ? JSON.stringify(overrides) : null);
}

/** The speaker's style with the viewer's own size and colours. */
export function viewerStyle(speaker: CaptionStyle | undefined, overrides: ViewerOverrides): CaptionStyle {
  const base = speaker ?? VIEWER_DEFAULT_STYLE;
  return {
    ...base,
    ...(overrides.size && { size: overrides.size }),
    ...(overrides.colors && { ...COLOR_PRESETS[overrides.colors], backgroundOpacity: 1 }),
  };
}

/** The next size up (1) or down (-1) from `size`; undefined past either end. */
export function stepSize(size: number, delta: 1 | -1): number | undefined {
  return delta > 0 ? VIEWER_SIZES.find((s) => s > size) : VIEWER_SIZES.findLast((s) => s < size);
}
