import { useEffect } from 'react';
import type { CaptionFont } from '@app/shared/caption-style';

/** The self-hosted fonts' stylesheets (regular and bold; Latin, and Latin Extended where the font has it), fetched when first chosen. */
const WEB_FONT_CSS: Partial<Record<CaptionFont, () => Promise<unknown>>> = {
  atkinson: () => Promise.all([import('@fontsource/atkinson-hyperlegible/400.css'), import('@fontsource/atkinson-hyperlegible/700.css')]),
  opendyslexic: () => Promise.all([import('@fontsource/opendyslexic/400.css'), import('@fontsource/opendyslexic/700.css')]),
};

export function loadCaptionFont(font: CaptionFont): Promise<unknown> {
  return WEB_FONT_CSS[font]?.().catch((err: unknown) => console.warn('[caption-style] font did not load', err)) ?? Promise.resolve();
}

/** Loads the style's font when it is one the app ships (the system's otherwise). */
export function useCaptionFont(font: CaptionFont): void {
  useEffect(() => void loadCaptionFont(font), [font]);
}
