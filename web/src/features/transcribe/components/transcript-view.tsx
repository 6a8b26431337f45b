import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { textDirection, type RecognitionLanguage } from '@app/shared/constants';
import { ArrowDown } from 'lucide';
import { cn } from '../../../components/ui/cn';
import { useBottomInsetVariable } from '../../../lib/bottom-inset';
import type { TranscriptChapter, TranscriptStore } from '../lib/transcript-store';
import { Icon } from '../../../components/ui/icon';

/**
 * The live transcript, at a cost per result that does not grow with its length. Final text is
 * paragraphs ("blocks") in chapters (see transcript-store.ts); a block opens at each paragraph of
 * the text, and line breaks inside one show as they are (`white-space: pre-line`). The open chapter shows one
 * paragraph element per block, each a single text node, so a new result changes one text node.
 * A full chapter settles into one element holding its paragraphs as plain text (a blank line
 * between them, the same gap as the paragraphs' one-line margin, so nothing moves when it
 * settles), rendered once and never again: 50,000 words are a few dozen nodes, still
 * selectable, found by the browser's find and copied as text. Offscreen paragraphs and settled
 * chapters skip layout and paint (`content-visibility: auto`). A full chapter settles once the
 * text below it puts it far out of view (SETTLE_BELOW_CHARS, or a whole newer chapter when
 * chapters are shorter than that), so its new element is skipped from the start: settled any
 * nearer, laying out its text took a frame of its own (13-25 ms on a 2-core machine), and kept as
 * paragraphs any longer, each of them is one more element every frame checks for visibility.
 * Interim text has its own element, written without React. A polite live region announces each
 * new final segment, alone.
 */

/**
 * Characters of open-chapter text that put the full chapter above far out of view: in the widest
 * transcript (about 95 characters a line, 29 px lines) 8,000 characters are some 2,400 px, more
 * than a tall screen and the margin around it in which the browser lays out skipped content.
 */
export const SETTLE_BELOW_CHARS = 8_000;

/** A block's text as shown: the blank lines that open or close its paragraph are the gap between elements. */
const shown = (text: string) => text.replace(/^\n+|\n+$/gu, '');

const Paragraph = memo(function Paragraph({ text }: { text: string }) {
  return <p className="mb-[1lh] whitespace-pre-line [contain-intrinsic-size:auto_4.5rem] [content-visibility:auto] last:mb-0">{shown(text)}</p>;
});

const Chapter = memo(function Chapter({ chapter }: { chapter: TranscriptChapter }) {
  return (
    <div>
      {chapter.blocks.map((block) => (
        <Paragraph key={block.key} text={block.text} />
      ))}
    </div>
  );
});

/** A full chapter: its paragraphs as one text node (never changes again). */
const SettledChapter = memo(function SettledChapter({ chapter }: { chapter: TranscriptChapter }) {
  return (
    <div className="mb-[1lh] [contain-intrinsic-size:auto_40rem] [content-visibility:auto] whitespace-pre-line" data-settled="">
      {chapter.blocks.map((block) => shown(block.text)).join('\n\n')}
    </div>
  );
});

/** The final text: the only part that re-renders per final result (the view around it does not). */
const FinalText = memo(function FinalText({
  store,
  placeholder,
}: {
  store: TranscriptStore;
  placeholder: string;
}) {
  const chapters = useSyncExternalStore(store.subscribe, store.getChapters);
  if (chapters.length === 0) return <p className="text-fg-faint">{placeholder}</p>;
  // The open chapter stays paragraphs; so does the full one before it until enough text is below it.
  const open = chapters[chapters.length - 1]!;
  const below = open.blocks.reduce((chars, block) => chars + block.text.length, 0);
  const settled = chapters.length - (below >= SETTLE_BELOW_CHARS ? 1 : 2);
  return chapters.map((chapter, i) =>
    i < settled ? <SettledChapter key={chapter.key} chapter={chapter} /> : <Chapter key={chapter.key} chapter={chapter} />,
  );
});

/**
 * Interim text, written straight into its element: an interim result (several a second) costs
 * a text-node change, no React render. Present (`data-interim`) only while there is any.
 */
function Interim({ store }: { store: TranscriptStore }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useLayoutEffect(() => {
    const show = () => {
      const el = ref.current;
      if (!el) return;
      const text = store.getInterim();
      el.textContent = text;
      if (el.hidden !== !text) {
        el.hidden = !text;
        el.toggleAttribute('data-interim', Boolean(text));
      }
    };
    show();
    return store.subscribeInterim(show);
  }, [store]);
  return <p ref={ref} hidden className="mt-1 text-fg-faint italic" />;
}

/**
 * A session's transcript: the height of the screen below the card's scroll margin (5rem, the sticky
 * header's room) and what the card shows above the transcript (--transcript-top,
 * use-transcript-top.ts), less 1rem of air and what is pinned over the bottom of the screen
 * (--bottom-inset, lib/bottom-inset.ts: the cookie notice), so its newest line, at its bottom, is in view; at least
 * 10rem, and on larger screens at most its usual 20rem.
 */
const FILL_HEIGHT =
  'h-[max(10rem,calc(100dvh-6rem-var(--transcript-top,16rem)-var(--bottom-inset,0px)))] ' +
  'sm:h-[clamp(10rem,calc(100dvh-6rem-var(--transcript-top,16rem)-var(--bottom-inset,0px)),20rem)]';

/** Within this many pixels of the bottom counts as "at the bottom". */
const STICK_PX = 40;

export function TranscriptView({
  store,
  language,
  status,
  fill = false,
  className,
}: {
  store: TranscriptStore;
  language: RecognitionLanguage;
  status: 'ready' | 'recording' | 'paused' | 'stopped';
  /** Take the screen's height below the card's top part (a session is under way). */
  fill?: boolean;
  className?: string;
}) {
  const { t } = useTranslation();
  const empty = useSyncExternalStore(store.subscribe, () => store.isEmpty);
  const scroller = useRef<HTMLDivElement>(null);
  useBottomInsetVariable(scroller);
  const live = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const [showJump, setShowJump] = useState(false);

  const content = useRef<HTMLDivElement>(null);

  /**
   * Where the view was at the last scroll event. The reader leaves the newest text only by
   * scrolling up, away from the bottom: our own scrolls go down, and so do the browser's when
   * it keeps the view on what it showed as text comes in (scroll anchoring), so a scroll event
   * that finds the view lower, or at the bottom, never stops the following, whatever moved it.
   */
  const lastTop = useRef(0);

  /**
   * Whether the final text changed since the last frame began. The browser's own scroll can go up
   * too: when a full chapter far above settles, its new element is sized at a placeholder's height
   * until it comes into view, shorter than its text, and the browser moves the view up by the
   * difference to keep what it showed in place. That happens in the first layout after the change,
   * which a scroll event's handler may force before the frame has followed the new text below
   * (reading the view's position lays it out), so a scroll event in that window, up and away from
   * the bottom, is the browser's and does not stop the following. The window closes with the
   * next frame's animation callbacks, which run after its scroll events.
   */
  const textChanged = useRef(false);
  useEffect(() => {
    let frame = 0;
    const unsubscribe = store.subscribe(() => {
      textChanged.current = true;
      frame ||= requestAnimationFrame(() => {
        frame = 0;
        textChanged.current = false;
      });
    });
    return () => {
      unsubscribe();
      cancelAnimationFrame(frame);
    };
  }, [store]);

  const follow = useCallback(() => {
    const el = scroller.current;
    if (!el || !stick.current) return;
    const bottom = el.scrollHeight - el.clientHeight;
    if (Math.abs(el.scrollTop - bottom) < 1) return;
    el.scrollTop = bottom;
  }, []);

  // Following the newest text: when the text grows (or the scroller resizes) while the reader is
  // at the bottom. A ResizeObserver reports after the frame's layout, so reading the height
  // there forces no layout of its own, and the scroll lands in the frame that shows the text.
  useEffect(() => {
    const observed = [scroller.current, content.current].filter((el) => el !== null);
    if (typeof ResizeObserver === 'undefined' || observed.length === 0) return;
    const observer = new ResizeObserver(follow);
    for (const el of observed) observer.observe(el);
    return () => observer.disconnect();
  }, [follow]);

  // The live region says only the newest final text.
  useEffect(
    () =>
      store.onAppend((segment) => {
        if (live.current) live.current.textContent = segment.text;
      }),
    [store],
  );

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const top = el.scrollTop;
    const up = top < lastTop.current;
    lastTop.current = top;
    if (el.scrollHeight - top - el.clientHeight <= STICK_PX) {
      stick.current = true;
      setShowJump(false);
    } else if (up && !textChanged.current) {
      stick.current = false;
      setShowJump(true);
    }
  };

  const jump = () => {
    stick.current = true;
    setShowJump(false);
    follow();
  };

  return (
    <div className={cn('relative', className)}>
      <div
        ref={scroller}
        onScroll={onScroll}
        role="region"
        aria-label={t('transcribe.transcript.label')}
        tabIndex={0}
        lang={language}
        dir={textDirection(language)}
        data-testid="transcript"
        className={cn(
          'h-64 overflow-y-auto overscroll-contain [contain:strict] rounded-xl border border-border bg-canvas p-4 text-base leading-relaxed text-fg sm:h-80 sm:text-lg',
          fill && FILL_HEIGHT,
        )}
      >
        <div ref={content}>
          <FinalText
            store={store}
            placeholder={status === 'recording' ? t('transcribe.transcript.listening') : t('transcribe.transcript.empty')}
          />
          <Interim store={store} />
        </div>
      </div>
      {showJump && !empty && (
        <button
          type="button"
          onClick={jump}
          className="absolute bottom-3 left-1/2 inline-flex -translate-x-1/2 items-center gap-1.5 rounded-full bg-fg px-3 py-1.5 text-sm font-medium text-fg-inverse shadow-lg hover:bg-fg-soft"
        >
          <Icon node={ArrowDown} size={16} />
          {t('transcribe.transcript.jump')}
        </button>
      )}
      <div ref={live} aria-live="polite" className="-mt-px h-px w-px overflow-hidden whitespace-nowrap [clip-path:inset(50%)] [contain:strict]" lang={language} dir={textDirection(language)} />
    </div>
  );
}
