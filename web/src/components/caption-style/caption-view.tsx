import type { CSSProperties, ReactNode } from 'react';
import { captionCss, type CaptionStyle } from '@app/shared/caption-style';

/**
 * Captions in a caption style: the area (background, placement) and the block holding the text,
 * at most the style's lines tall with the newest showing; interim words dimmed or hidden.
 * `placeholder` shows, dimmed, when there is no text yet.
 */
export function CaptionView({
  style,
  text,
  interim = '',
  placeholder,
  className,
  lang,
  dir,
  testId,
  paintBackground = true,
}: {
  style: CaptionStyle;
  text: string;
  interim?: string;
  placeholder?: ReactNode;
  className?: string;
  lang?: string;
  dir?: 'ltr' | 'rtl' | 'auto';
  testId?: string;
  /** False when the surface around already paints the style's background (caption mode's whole screen). */
  paintBackground?: boolean;
}) {
  const css = captionCss(style);
  // minHeight 0: in a flex column it shrinks to the room left, so the block's lines are what clips.
  const area = { ...css.area, minHeight: 0, ...(!paintBackground && { backgroundColor: 'transparent' }) };
  return (
    <div className={className} style={area as CSSProperties}>
      <p dir={dir} lang={lang} aria-live="off" className="whitespace-pre-line [overflow-wrap:anywhere]" style={css.block as CSSProperties} data-testid={testId}>
        <span>
          {text || interim ? (
            <>
              {text}
              {interim && <span style={css.interim as CSSProperties}>{interim}</span>}
            </>
          ) : (
            <span className="opacity-60">{placeholder}</span>
          )}
        </span>
      </p>
    </div>
  );
}
