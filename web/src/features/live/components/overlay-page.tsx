import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useParams } from 'react-router';
import { captionCss, FONT_STACKS, type CaptionStyle } from '@app/shared/caption-style';
import { textDirection, type RecognitionLanguage } from '@app/shared/constants';
import { useCaptionFont } from '../../../lib/caption-fonts';
import { useLiveT } from '../i18n';
import { lastCaptionLines, type Measure } from '../lib/caption-lines';
import { followLive } from '../lib/follow-live';
import { MaskedText } from '../lib/masked-text';
import { OVERLAY_CANVAS_WIDTH, overlayStyle, parseOverlayQuery } from '../lib/overlay-query';
import { VIEWER_DEFAULT_STYLE } from '../lib/viewer-style';

/** Older text than this many characters before the first line shown is dropped. */
const KEEP_CHARS = 4_096;

/** The class on <html> that makes the page transparent and without scroll bars (index.css; index.html sets it before first paint). */
const OVERLAY_CLASS = 'overlay';

let canvas: CanvasRenderingContext2D | null | undefined;

/** How wide text is in `style` at `px` pixels (canvas metrics; an estimate where there is no canvas). */
function measurer(style: CaptionStyle, px: number): Measure {
  canvas ??= (() => {
    try {
      return document.createElement('canvas').getContext('2d');
    } catch {
      return null;
    }
  })();
  const ctx = canvas;
  if (!ctx) return (text) => text.length * px * 0.6;
  const caps = (text: string) => (style.uppercase ? text.toUpperCase() : text);
  return (text) => {
    ctx.font = `${style.weight} ${px}px ${FONT_STACKS[style.font]}`;
    ctx.letterSpacing = `${style.letterSpacing * px}px`;
    return ctx.measureText(caps(text)).width;
  };
}

/** The viewport's width, and a count that changes when a web font finishes loading (text widths change). */
function useLayoutInputs(): { width: number; fonts: number } {
  const [width, setWidth] = useState(() => document.documentElement.clientWidth || window.innerWidth);
  const [fonts, setFonts] = useState(0);
  useEffect(() => {
    const root = document.documentElement;
    const sized = typeof ResizeObserver === 'function' ? new ResizeObserver(() => setWidth(root.clientWidth || window.innerWidth)) : null;
    sized?.observe(root);
    const onFonts = () => setFonts((n) => n + 1);
    document.fonts?.addEventListener('loadingdone', onFonts);
    return () => {
      sized?.disconnect();
      document.fonts?.removeEventListener('loadingdone', onFonts);
    };
  }, []);
  return { width, fonts };
}

/**
 * A live share's captions for a video mixer's browser source (OBS, vMix): `/live/:code/overlay`.
 * A transparent page with only the captions: the newest final text as roll-up lines (the style's
 * lines on screen, wrapped from the start so a line once shown stays as it is), at the style's
 * position, in the speaker's style with the address's overrides (docs/overlay.md). Sizes are
 * pixels of a 1920×1080 canvas, scaled to the page's width. It follows the share like the viewer
 * page (followLive: in order, once, catching up after a dropped connection); when the speaker
 * stops, or the code is wrong, nothing shows.
 */
export default function LiveOverlayPage() {
  const { code = '' } = useParams();
  const { search } = useLocation();
  const tl = useLiveT();
  const overrides = useMemo(() => parseOverlayQuery(search), [search]);
  const [speakerStyle, setSpeakerStyle] = useState<CaptionStyle | undefined>();
  const style = overlayStyle(speakerStyle ?? VIEWER_DEFAULT_STYLE, overrides);
  useCaptionFont(style.font);
  const [language, setLanguage] = useState<RecognitionLanguage | null>(null);
  /** The text from (about) the first line shown on: `base` plus the word still arriving. */
  const [text, setText] = useState('');
  const base = useRef('');
  const { width, fonts } = useLayoutInputs();

  useLayoutEffect(() => {
    const root = document.documentElement;
    root.classList.add(OVERLAY_CLASS);
    return () => root.classList.remove(OVERLAY_CLASS);
  }, []);

  useEffect(() => {
    base.current = '';
    setText('');
    // The share's text with its profanity mode applied, appended out of the document.
    const holder = document.createElement('p');
    const masked = new MaskedText(holder);
    const update = () => {
      // Every node but the last (the word still arriving) is complete: move it into `base`.
      const tail = holder.lastChild;
      while (holder.firstChild && holder.firstChild !== tail) {
        base.current += holder.firstChild.textContent ?? '';
        holder.firstChild.remove();
      }
      setText(base.current + (tail?.textContent ?? ''));
    };
    return followLive(code, {
      text(piece) {
        masked.append(piece);
        update();
      },
      mask(mode, lang) {
        void masked.setMode(mode, lang).then(update);
      },
      language: setLanguage,
      style: setSpeakerStyle,
      state(state) {
        if (state !== 'ended' && state !== 'not-found') return;
        base.current = '';
        holder.textContent = '';
        setText('');
      },
      reconnecting() {},
    });
  }, [code]);

  const scale = width / OVERLAY_CANVAS_WIDTH;
  const px = style.size * scale;
  const { area, block } = captionCss({ ...style, size: px });
  // The block's content width: the page's, less the block's side padding (0.4em each).
  const lineWidth = Math.max(px, width - 0.8 * px) * 0.98;
  // `fonts` changes when a web font loads: the same text may then wrap differently.
  const { lines, start } = useMemo(
    () => lastCaptionLines(text, style.lines, lineWidth, measurer(style, px), language),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `style`'s parts that change widths are listed
    [text, style.lines, lineWidth, px, style.font, style.weight, style.letterSpacing, style.uppercase, fonts, language],
  );

  // Text long scrolled away is dropped (what stays wraps into the same lines).
  useLayoutEffect(() => {
    if (start <= KEEP_CHARS || start > base.current.length) return;
    base.current = base.current.slice(start);
    setText((t) => t.slice(start));
  }, [start]);

  return (
    <div style={{ ...area, backgroundColor: 'transparent', height: '100dvh', overflow: 'hidden' }}>
      <title>{`${tl('viewer.title')}`}</title>
      {lines.length > 0 && (
        <div
          role="region"
          aria-label={tl('viewer.captions')}
          lang={language ?? undefined}
          dir={textDirection(language)}
          style={{ ...block, backgroundColor: area.backgroundColor }}
        >
          {lines.map((line, i) => (
            <div key={i} style={{ whiteSpace: 'nowrap', overflow: 'hidden' }}>
              {line}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
