import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState, type CSSProperties } from 'react';
import { useParams } from 'react-router';
import { ArrowDownToLine, Minus, Plus } from 'lucide';
import { captionCss, COLOR_PRESETS, type CaptionStyle, type ColorPreset } from '@app/shared/caption-style';
import { LIVE_VIEWER_PING_MS, STORAGE_KEYS, textDirection, type RecognitionLanguage } from '@app/shared/constants';
import { Icon } from '../../../components/ui/icon';
import { useCaptionStyleT } from '../../../components/caption-style/i18n';
import { api } from '../../../lib/api';
import { useCaptionFont } from '../../../lib/caption-fonts';
import { useLiveT } from '../i18n';
import { followLive, type FollowState } from '../lib/follow-live';
import { MaskedText } from '../lib/masked-text';
import { PieceFeed } from '../lib/piece-feed';
import { readViewerOverrides, stepSize, viewerStyle, writeViewerOverrides, type ViewerOverrides } from '../lib/viewer-style';
/* The translation beside the captions loads on its own, after the captions. */
const ViewerTranslation = lazy(() => import('./viewer-translation'));

/** Closer than this to the end counts as following the newest text (auto-scroll stays on). */
const PINNED_PX = 48;

/** This tab's random viewer id (session storage: the same while the tab lives, another in a new tab). */
function viewerId(): string {
  try {
    const stored = sessionStorage.getItem(STORAGE_KEYS.liveViewerId);
    if (stored) return stored;
    const id = crypto.randomUUID();
    sessionStorage.setItem(STORAGE_KEYS.liveViewerId, id);
    return id;
  } catch {
    return crypto.randomUUID();
  }
}

/** While following and the page is visible, tells the viewer count every LIVE_VIEWER_PING_MS. */
function useViewerPing(code: string, following: boolean) {
  useEffect(() => {
    if (!following) return;
    const id = viewerId();
    let last = 0;
    const ping = () => {
      if (document.visibilityState !== 'visible') return;
      last = Date.now();
      api('recordLiveViewer', { params: { code }, body: { viewerId: id } }).catch(() => undefined); // the count is best effort
    };
    const onVisible = () => {
      if (Date.now() - last >= LIVE_VIEWER_PING_MS) ping();
    };
    ping();
    const timer = setInterval(ping, LIVE_VIEWER_PING_MS);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [code, following]);
}

/** The style's type, colours, edge and alignment for a transcript that scrolls (its placement and lines are caption mode's). */
function transcriptCss(style: CaptionStyle): CSSProperties {
  const { area, block } = captionCss(style);
  const { fontFamily, fontSize, lineHeight, letterSpacing, fontWeight, textTransform, textAlign, color, textShadow } = block;
  return { fontFamily, fontSize, lineHeight, letterSpacing, fontWeight, textTransform, textAlign, color, textShadow, backgroundColor: area.backgroundColor };
}

/**
 * The public page of a live share (`/live/:code`, no account needed): the captions so far, then
 * new text as it arrives, in the speaker's caption style (light on dark when they saved none);
 * the viewer may choose their own size and colours on their device and go back to the speaker's. New text is appended to the transcript
 * (the text already shown is never rendered again) and announced alone in a live region; the
 * view follows the newest text unless the reader scrolled up.
 */
export default function LiveViewerPage() {
  const { code = '' } = useParams();
  const tl = useLiveT();
  const tc = useCaptionStyleT();
  const colorsId = useId();
  const [state, setState] = useState<FollowState>('loading');
  const [reconnecting, setReconnecting] = useState(false);
  const [language, setLanguage] = useState<RecognitionLanguage | null>(null);
  const [hasText, setHasText] = useState(false);
  const [latest, setLatest] = useState('');
  const [speakerStyle, setSpeakerStyle] = useState<CaptionStyle | undefined>();
  const [overrides, setOverrides] = useState<ViewerOverrides>(readViewerOverrides);
  const shown = viewerStyle(speakerStyle, overrides);
  useCaptionFont(shown.font);
  const override = (next: ViewerOverrides) => {
    setOverrides(next);
    writeViewerOverrides(next);
  };
  const [scrolledUp, setScrolledUp] = useState(false);
  const textRef = useRef<HTMLParagraphElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  /** What the viewer has been shown, for the translation beside it. */
  const [feed] = useState(() => new PieceFeed());

  const toEnd = useCallback(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);

  useEffect(() => {
    setState('loading');
    setHasText(false);
    if (textRef.current) textRef.current.textContent = '';
    // The share's profanity mode, applied here (the speaker's own mode is already in the text).
    const shown = textRef.current ? new MaskedText(textRef.current) : null;
    const reveal = (piece: string) => {
      if (!piece) return;
      setHasText(true);
      setLatest(piece);
      if (pinned.current) toEnd();
    };
    feed.reset();
    return followLive(code, {
      text(piece) {
        const visible = shown?.append(piece) ?? '';
        reveal(visible);
        feed.push(visible);
      },
      mask(mode, lang) {
        void shown?.setMode(mode, lang).then(reveal);
      },
      language: setLanguage,
      style: setSpeakerStyle,
      state: setState,
      reconnecting: setReconnecting,
    });
  }, [code, toEnd, feed]);

  useViewerPing(code, state === 'live');

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < PINNED_PX;
    setScrolledUp(!pinned.current);
  };

  const title = <title>{`${tl('viewer.title')}`}</title>;

  if (state === 'not-found') {
    return (
      <div className="mx-auto max-w-xl px-4 py-16 text-center">
        {title}
        <h1 className="text-2xl font-bold text-fg">{tl('viewer.notFoundTitle')}</h1>
        <p className="mt-3 text-fg-muted">{tl('viewer.notFoundBody')}</p>
      </div>
    );
  }

  const sizeButton = 'inline-flex size-10 items-center justify-center rounded-lg border border-slate-600 text-white hover:bg-slate-800 disabled:opacity-40';
  const smaller = stepSize(shown.size, -1);
  const larger = stepSize(shown.size, 1);
  return (
    <div className="flex min-h-[calc(100dvh-4rem)] flex-col bg-black text-white">
      {title}
      <div className="flex flex-wrap items-center gap-3 border-b border-slate-800 px-4 py-2 sm:px-6">
        <h1 className="text-base font-semibold">{tl('viewer.heading')}</h1>
        {state === 'live' && (
          <span className="inline-flex items-center gap-1.5 text-sm text-red-300">
            <span aria-hidden="true" className="size-2 rounded-full bg-red-500" />
            {tl('viewer.live')}
          </span>
        )}
        <div className="ml-auto flex flex-wrap items-center gap-2">
          <button type="button" className={sizeButton} aria-label={tl('viewer.smaller')} disabled={!smaller} onClick={() => override({ ...overrides, size: smaller })}>
            <Icon node={Minus} size={18} />
          </button>
          <button type="button" className={sizeButton} aria-label={tl('viewer.larger')} disabled={!larger} onClick={() => override({ ...overrides, size: larger })}>
            <Icon node={Plus} size={18} />
          </button>
          <label htmlFor={colorsId} className="sr-only">
            {tl('viewer.colors')}
          </label>
          <select
            id={colorsId}
            value={overrides.colors ?? ''}
            onChange={(e) => override({ ...overrides, colors: (e.target.value || undefined) as ColorPreset | undefined })}
            className="h-10 rounded-lg border border-slate-600 bg-black px-2 text-sm text-white"
          >
            <option value="">{tl('viewer.speakerColors')}</option>
            {(Object.keys(COLOR_PRESETS) as ColorPreset[]).map((name) => (
              <option key={name} value={name}>
                {tc(`presets.${name}`)}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="h-10 rounded-lg border border-slate-600 px-3 text-sm font-medium text-white hover:bg-slate-800 disabled:opacity-40"
            disabled={!overrides.size && !overrides.colors}
            onClick={() => override({})}
          >
            {tl('viewer.speakerStyle')}
          </button>
        </div>
      </div>

      <div
        ref={scroller}
        onScroll={onScroll}
        tabIndex={0}
        role="region"
        aria-label={tl('viewer.captions')}
        lang={language ?? undefined}
        dir={textDirection(language)}
        className="relative max-h-[calc(100dvh-10rem)] flex-1 overflow-y-auto px-4 py-6 outline-none focus-visible:ring-2 focus-visible:ring-white sm:px-8"
        style={transcriptCss(shown)}
      >
        {state === 'loading' && (
          <p role="status" className="opacity-80">
            {tl('viewer.loading')}
          </p>
        )}
        {state === 'live' && !hasText && <p className="opacity-80">{tl('viewer.waiting')}</p>}
        {/* Filled by appending each new piece (followLive): React never re-renders the text shown. */}
        <p ref={textRef} className="whitespace-pre-wrap" />
      </div>

      {state !== 'loading' && (
        <Suspense fallback={null}>
          <ViewerTranslation feed={feed} language={language} />
        </Suspense>
      )}

      {scrolledUp && (
        <button
          type="button"
          onClick={() => {
            pinned.current = true;
            setScrolledUp(false);
            toEnd();
          }}
          className="fixed bottom-6 right-6 inline-flex items-center gap-2 rounded-full bg-white px-4 py-2 text-sm font-medium text-black shadow-lg"
        >
          <Icon node={ArrowDownToLine} size={16} />
          {tl('viewer.latest')}
        </button>
      )}

      <div className="px-4 pb-4 sm:px-6">
        {state === 'ended' && (
          <p role="status" className="rounded-lg border border-slate-600 px-4 py-3 text-lg">
            {tl('viewer.ended')}
          </p>
        )}
        {reconnecting && state !== 'ended' && (
          <p role="status" className="text-sm text-amber-200">
            {tl('viewer.reconnecting')}
          </p>
        )}
      </div>

      {/* Screen readers hear each new piece once, not the whole transcript. */}
      <div aria-live="polite" className="sr-only" lang={language ?? undefined}>
        {latest}
      </div>
    </div>
  );
}
