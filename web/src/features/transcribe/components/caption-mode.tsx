import * as RadixDialog from '@radix-ui/react-dialog';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { textDirection, type RecognitionLanguage } from '@app/shared/constants';
import { X } from 'lucide';
import { cn } from '../../../components/ui/cn';
import { PRIVATE_TEXT } from '../../../lib/private-text';
import { readStorage, writeStorage } from '../../../lib/storage';
import type { CardStatus } from '../lib/transcription-controller';
import type { TranscriptStore } from '../lib/transcript-store';
import { joinFor } from '../../../lib/text-join';
import { Icon } from '../../../components/ui/icon';

/**
 * Caption mode: the latest words, large, high contrast, fullscreen where the
 * browser allows it. Font size and colours are kept on the device. Loaded on
 * demand; the card's shortcuts keep working inside it (data-caption-mode).
 */

const SIZE_KEY = 'transcribe.captionSize';
const THEME_KEY = 'transcribe.captionTheme';
const SIZES = [28, 36, 44, 52, 64, 76, 92, 110];
const DEFAULT_SIZE = 52;
const THEMES = {
  dark: 'bg-black text-white',
  yellow: 'bg-black text-yellow-300',
  light: 'bg-white text-black',
} as const;
type CaptionTheme = keyof typeof THEMES;
const THEME_ORDER: CaptionTheme[] = ['dark', 'yellow', 'light'];
/** About this many characters of final text stay on screen. */
const TAIL_CHARS = 320;

function readSize(): number {
  const n = Number(readStorage(SIZE_KEY));
  return SIZES.includes(n) ? n : DEFAULT_SIZE;
}

function readTheme(): CaptionTheme {
  const v = readStorage(THEME_KEY);
  return v === 'yellow' || v === 'light' ? v : 'dark';
}

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
  const tail = useTail(store);
  const interim = useSyncExternalStore(store.subscribeInterim, store.getInterim);
  const [size, setSize] = useState(readSize);
  const [theme, setTheme] = useState(readTheme);
  const content = useRef<HTMLDivElement>(null);
  const separator = language === 'zh-CN' ? '' : ' ';

  useEffect(() => writeStorage(SIZE_KEY, String(size)), [size]);
  useEffect(() => writeStorage(THEME_KEY, theme), [theme]);

  // Fullscreen while open; leaving fullscreen (Escape, system gesture) leaves caption mode.
  useEffect(() => {
    if (!open) return;
    const el = content.current;
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

  const step = (delta: number) => setSize((s) => SIZES[Math.min(SIZES.length - 1, Math.max(0, SIZES.indexOf(s) + delta))] ?? DEFAULT_SIZE);
  const control =
    'inline-flex h-11 min-w-11 items-center justify-center rounded-lg border border-current/40 px-3 text-base font-semibold hover:bg-current/10';

  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Content
          ref={content}
          data-caption-mode=""
          {...PRIVATE_TEXT}
          aria-describedby={undefined}
          className={cn('fixed inset-0 z-[60] flex flex-col outline-none', THEMES[theme])}
        >
          <RadixDialog.Title className="sr-only">{t('transcribe.tools.captions')}</RadixDialog.Title>
          <div className="flex items-center gap-2 p-3 sm:p-4">
            <span className="mr-auto inline-flex items-center gap-2 text-sm font-medium opacity-80">
              {status === 'recording' && <span aria-hidden="true" className="size-2.5 rounded-full bg-red-600 motion-safe:animate-pulse" />}
              {t(`transcribe.status.${status}`)}
            </span>
            <button type="button" className={control} onClick={() => step(-1)} disabled={size === SIZES[0]} aria-label={t('transcribe.captions.smaller')}>
              A−
            </button>
            <button type="button" className={control} onClick={() => step(1)} disabled={size === SIZES.at(-1)} aria-label={t('transcribe.captions.bigger')}>
              A+
            </button>
            <button
              type="button"
              className={control}
              onClick={() => setTheme((th) => THEME_ORDER[(THEME_ORDER.indexOf(th) + 1) % THEME_ORDER.length]!)}
              aria-label={t('transcribe.captions.colors')}
            >
              <span aria-hidden="true">◐</span>
            </button>
            <RadixDialog.Close className={control} aria-label={t('transcribe.captions.exit')}>
              <Icon node={X} size={20} />
            </RadixDialog.Close>
          </div>
          <div className="flex flex-1 flex-col justify-end overflow-hidden px-4 pb-8 sm:px-10 sm:pb-12">
            <p
              dir={textDirection(language)}
              lang={language}
              aria-live="off"
              className="whitespace-pre-line font-semibold leading-tight [overflow-wrap:anywhere]"
              style={{ fontSize: `${size}px` }}
              data-testid="captions"
            >
              {tail || interim ? (
                <>
                  {tail}
                  {interim ? joinFor(tail, interim, separator) : ''}
                  {interim && <span className="opacity-70">{interim}</span>}
                </>
              ) : (
                <span className="opacity-60">{t('transcribe.captions.waiting')}</span>
              )}
            </p>
          </div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
