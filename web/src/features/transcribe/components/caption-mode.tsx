import * as RadixDialog from '@radix-ui/react-dialog';
import { lazy, Suspense, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { joinsWithoutSpaces, textDirection, type RecognitionLanguage } from '@app/shared/constants';
import { X } from 'lucide';
import { shownBackground } from '@app/shared/caption-style';
import { CaptionView } from '../../../components/caption-style/caption-view';
import { useCaptionStyleT } from '../../../components/caption-style/i18n';
import { useCaptionFont } from '../../../lib/caption-fonts';
import { useCaptionStyle, useSaveCaptionStyle } from '../../../lib/caption-style';
import { PRIVATE_TEXT } from '../../../lib/private-text';
import type { CardStatus } from '../lib/transcription-controller';
import type { TranscriptStore } from '../lib/transcript-store';
import { joinFor } from '../../../lib/text-join';
import { Icon } from '../../../components/ui/icon';
import { SecondLine, SecondLineControl, useSecondLine } from './caption-translation';

/**
 * Caption mode: the latest words, fullscreen where the browser allows it, in the caption style
 * (the account's, or the device's for a visitor: font, colours, placement, lines kept...).
 * A−/A+ change the style's size and save it; the style editor loads when opened. Loaded on
 * demand; the card's shortcuts keep working inside it (data-caption-mode).
 */

/** A−/A+ step through these sizes (px); a size between two steps goes to the next one. */
const SIZES = [28, 36, 44, 52, 64, 76, 92, 110, 130, 160];
/** At most this many characters of final text are laid out (the style's lines show the newest of them). */
const TAIL_CHARS = 600;

const CaptionStyleEditor = lazy(() => import('../../../components/caption-style/style-editor'));

/**
 * The last TAIL_CHARS characters of the text as the transcript joins it (paragraphs and line
 * breaks kept), from the word after the first space in it (O(1) in the transcript's length).
 */
function useTail(store: TranscriptStore): string {
  useSyncExternalStore(store.subscribe, store.getChapters);
  const { textSource } = store;
  const tail = textSource.slice(-TAIL_CHARS);
  const cut = tail.length < textSource.length ? tail.search(/\s/u) : -1;
  return (cut >= 0 ? tail.slice(cut) : tail).replace(/^\s+/u, '');
}

export default function CaptionMode({
  open,
  onOpenChange,
  store,
  language,
  status,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  store: TranscriptStore;
  language: RecognitionLanguage;
  status: CardStatus;
}) {
  const { t } = useTranslation();
  const tc = useCaptionStyleT();
  const tail = useTail(store);
  const interim = useSyncExternalStore(store.subscribeInterim, store.getInterim);
  const { style } = useCaptionStyle();
  const { save } = useSaveCaptionStyle();
  const [editing, setEditing] = useState(false);
  const [content, setContent] = useState<HTMLDivElement | null>(null);
  const contentRef = useRef<HTMLDivElement | null>(null);
  const separator = joinsWithoutSpaces(language) ? '' : ' ';
  useCaptionFont(style.font);
  const second = useSecondLine(store);

  // Fullscreen while open; leaving fullscreen (Escape, system gesture) leaves caption mode.
  useEffect(() => {
    if (!open) return;
    const el = contentRef.current;
    let entered = false;
    if (el?.requestFullscreen && !document.fullscreenElement) {
      el.requestFullscreen({ navigationUI: 'hide' }).then(
        () => (entered = true),
        () => undefined,
      );
    }
    const onChange = () => {
      if (entered && !document.fullscreenElement) onOpenChange(false);
    };
    document.addEventListener('fullscreenchange', onChange);
    return () => {
      document.removeEventListener('fullscreenchange', onChange);
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    };
  }, [open, onOpenChange]);

  const step = (delta: number) => {
    const next = delta > 0 ? SIZES.find((s) => s > style.size) : SIZES.findLast((s) => s < style.size);
    if (next) void save({ ...style, size: next }).catch(() => undefined); // shown at once; put back if refused
  };
  const control =
    'inline-flex h-11 min-w-11 items-center justify-center rounded-lg border border-current/40 px-3 text-base font-semibold hover:bg-current/10';

  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Content
          ref={(el) => {
            contentRef.current = el;
            setContent(el);
          }}
          data-caption-mode=""
          {...PRIVATE_TEXT}
          aria-describedby={undefined}
          className="fixed inset-0 z-[60] flex flex-col bg-black outline-none"
          // The whole screen in the style's colours (the background at its opacity over black), the controls too.
          style={{ color: style.color, backgroundColor: shownBackground(style) }}
        >
          <RadixDialog.Title className="sr-only">{t('transcribe.tools.captions')}</RadixDialog.Title>
          <div className="flex items-center gap-2 p-3 sm:p-4">
            <span className="mr-auto inline-flex items-center gap-2 text-sm font-medium opacity-80">
              {status === 'recording' && <span aria-hidden="true" className="size-2.5 rounded-full bg-red-600 motion-safe:animate-pulse" />}
              {t(`transcribe.status.${status}`)}
            </span>
            <SecondLineControl source={language} onTranslator={second.onTranslator} />
            <button type="button" className={control} onClick={() => step(-1)} disabled={style.size <= SIZES[0]!} aria-label={t('transcribe.captions.smaller')}>
              A−
            </button>
            <button type="button" className={control} onClick={() => step(1)} disabled={style.size >= SIZES.at(-1)!} aria-label={t('transcribe.captions.bigger')}>
              A+
            </button>
            <button type="button" className={control} onClick={() => setEditing(true)}>
              {tc('open')}
            </button>
            <RadixDialog.Close className={control} aria-label={t('transcribe.captions.exit')}>
              <Icon node={X} size={20} />
            </RadixDialog.Close>
          </div>
          <CaptionView
            style={style}
            text={interim ? tail + joinFor(tail, interim, separator) : tail}
            interim={interim}
            placeholder={t('transcribe.captions.waiting')}
            lang={language}
            dir={textDirection(language)}
            className="flex-1 px-4 pb-8 sm:px-10 sm:pb-12"
            testId="captions"
            paintBackground={false}
          />
          {second.target && <SecondLine text={second.line} target={second.target} />}
          {editing && (
            <Suspense fallback={null}>
              <CaptionStyleEditor open onOpenChange={setEditing} container={content} />
            </Suspense>
          )}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
