import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState, useSyncExternalStore, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Captions, Mic, Pause, Play, Save, Square, Trash2 } from 'lucide';
import { toast } from '../../../lib/toast';
import { useQueryClient } from '../../../lib/query';
import {
  FEATURED_RECOGNITION_LANGUAGES,
  FREE_RECOGNITION_LANGUAGE,
  STORAGE_KEYS,
  VISITOR_LIMIT_SECONDS,
  type RecognitionLanguage,
} from '@app/shared/constants';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../components/ui/cn';
import { useSession } from '../../../lib/auth';
import { useCorrections } from '../../../lib/corrections-settings';
import { withPageCopy } from '../../../lib/i18n';
import { readStorage, writeStorage } from '../../../lib/storage';
import { markTranscriptionStarted } from '../../../lib/visit';
import { monthlyUsageKey, useMonthlyUsage } from '../../../lib/monthly-usage';
import { PLAN_VALUES } from '../../../lib/plan-values';
import { SHORTCUT_KEYS, useShortcuts } from '../hooks/use-shortcuts';
import { useRecordingSession } from '../hooks/use-recording-session';
import { useTranscriptTop } from '../hooks/use-transcript-top';
import { useWakeLock } from '../hooks/use-wake-lock';
import type { RecoveredTranscript } from '../lib/recovery';
import { logUnexpected, type Notice } from '../lib/transcription-controller';
import { OnDevicePanel, onDeviceOffered } from '../on-device/lazy-panel';
import { openUpgrade } from '../../../lib/open-upgrade';
import { LanguagePicker } from './language-picker';
import { SessionBadge, VisitorLimit } from './session-status';
import { ShortcutsHelp } from './shortcuts-help';
import { TranscriptView } from './transcript-view';
import { Icon } from '../../../components/ui/icon';

/* Dialogs and caption mode load on demand, with their copy: the home route stays small. */
const loadConfirm = withPageCopy(() => import('./confirm-new-dialog'));
const ConfirmNewDialog = lazy(loadConfirm);
const SaveDialog = lazy(withPageCopy(() => import('./save-dialog')));
const CaptionMode = lazy(withPageCopy(() => import('./caption-mode')));
/* Shown only in their rare cases. */
const RestorePrompt = lazy(withPageCopy(() => import('./restore-prompt')));
const UnsupportedNotice = lazy(withPageCopy(() => import('./unsupported-notice')));
/* Shown once there is text: fetched with the engine, on the intent to start. */
const loadExport = withPageCopy(() => import('./export-actions'));
const ExportActions = lazy(loadExport);

const VISITOR_LIMIT_MS = VISITOR_LIMIT_SECONDS * 1000;

const ERROR_KEYS = {
  'not-allowed': 'notAllowed',
  'service-not-allowed': 'serviceNotAllowed',
  'audio-capture': 'audioCapture',
  'language-not-supported': 'languageNotSupported',
  network: 'network',
  'start-failed': 'startFailed',
} as const;

const isFeatured = (v: unknown): v is RecognitionLanguage => (FEATURED_RECOGNITION_LANGUAGES as readonly unknown[]).includes(v);

/** Toasts for what the controller reports; read at call time so they follow the UI language. */
function useNotify() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return useCallback(
    (notice: Notice) => {
      if (notice.kind === 'time-limit') {
        toast.warning(t('transcribe.limit.reachedTitle'), {
          id: 'transcribe-limit',
          description: t('transcribe.limit.reachedBody', { seconds: VISITOR_LIMIT_SECONDS }),
          action: { label: t('home.cta.register'), onClick: () => navigate('/register') },
        });
      } else if (notice.kind === 'error') {
        const key = ERROR_KEYS[notice.code as keyof typeof ERROR_KEYS];
        toast.error(t('transcribe.errors.title'), {
          id: 'transcribe-error',
          description: key ? t(`transcribe.errors.${key}`) : t('transcribe.errors.other', { code: notice.code }),
          duration: notice.code === 'not-allowed' ? 15_000 : 8_000,
        });
      }
    },
    [t, navigate],
  );
}

/**
 * What a control offered while a signed-in user records (live sharing, composed in by the app):
 * the automatic transcription's server id while it runs, the plan, and the autosave cadence switch.
 */
export interface SessionShareProps {
  sessionId: string | null;
  isPro: boolean;
  setLive: (on: boolean) => void;
}

/**
 * The live transcription card: language, status and timer, controls, transcript, save and export.
 * `share`: shown to signed-in users from Start until the card is cleared.
 */
export function TranscriptionCard({ share: Share }: { share?: ComponentType<SessionShareProps> } = {}) {
  const { t } = useTranslation();
  const { user, isLoading } = useSession();
  const isPro = user?.plan === 'pro';
  const titleId = useId();

  // Pro: the last choice on this device, else the profile's (the user's choice, else their interface
  // language's locale, as the server answers it). Others: the free language.
  // A featured language is known at once; any other is checked against the whole list, which the
  // home route's first load leaves out.
  const [picked, setPicked] = useState<RecognitionLanguage | null>(() => {
    const stored = readStorage(STORAGE_KEYS.transcriptionLang);
    return isFeatured(stored) ? stored : null;
  });
  useEffect(() => {
    const stored = readStorage(STORAGE_KEYS.transcriptionLang);
    if (stored && !isFeatured(stored)) {
      // Offline after a new deploy: the profile's language stands.
      import('@app/shared/recognition-languages').then(({ isRecognitionLanguage }) => isRecognitionLanguage(stored) && setPicked((now) => now ?? stored), () => undefined);
    }
  }, []);
  const desired: RecognitionLanguage = isPro ? (picked ?? user.transcriptionLang) : FREE_RECOGNITION_LANGUAGE;
  const pick = (language: RecognitionLanguage) => {
    setPicked(language);
    writeStorage(STORAGE_KEYS.transcriptionLang, language);
  };

  const notify = useNotify();
  const limitMs = user ? null : VISITOR_LIMIT_MS;
  const { controller, status, language, sessionLanguage, restored, reconnecting, sessionId } = useRecordingSession({ language: desired, limitMs, notify });
  // The text corrections (account or device) apply to every result from the next one on; a start
  // made while a signed-in user's are loading waits for them.
  const { settings: corrections, isLoading: correctionsLoading } = useCorrections();
  useEffect(() => controller.setCorrections(correctionsLoading ? null : corrections), [controller, corrections, correctionsLoading]);
  // The transcript's own language (export, direction), which the picker may have moved on from.
  const textLanguage = sessionLanguage ?? language;
  const store = controller.store;
  const hasText = useSyncExternalStore(store.subscribe, () => !store.isEmpty);
  const setLive = useCallback((on: boolean) => controller.setLive(on), [controller]);

  const [dialog, setDialog] = useState<'confirm' | 'save' | null>(null);
  const [captions, setCaptions] = useState(false);
  const [help, setHelp] = useState(false);
  const [recovered, setRecovered] = useState<RecoveredTranscript | null>(null);
  /** Whether the device has been searched for a transcript to restore, for the current owner. */
  const [recoveryChecked, setRecoveryChecked] = useState(false);
  const supported = controller.supported;

  // Device data belongs to who recorded it: once the session is known, a transcript left by an
  // earlier page (reload, crash, closed tab) is offered back to that same user (or visitor) only.
  // When the signed-in user changes (logout, a session that ended, another account), the card
  // lets go of the transcript on screen; its device copy stays with its owner.
  const owner = isLoading ? undefined : (user?.id ?? null);
  const ownerSeen = useRef(owner);
  useEffect(() => {
    if (owner === undefined) return;
    const previous = ownerSeen.current;
    ownerSeen.current = owner;
    if (previous !== undefined && previous !== owner) controller.release();
    controller.resumeAutosave(owner);
    setRecovered(null);
    setRecoveryChecked(false);
    let live = true;
    controller
      .loadRecovery(owner)
      .then(
        (found) => {
          if (live && found && controller.getSnapshot().status === 'ready' && controller.store.isEmpty) setRecovered(found);
        },
        // The recovery code could not load (offline, a new deploy): nothing to offer.
        (err: unknown) => console.warn('[transcribe] could not look for a transcript to restore', err),
      )
      .finally(() => {
        if (live) setRecoveryChecked(true);
      });
    return () => {
      live = false;
    };
  }, [controller, owner]);

  // Unsupported browser: say so once, and explain in place of Start.
  const warned = useRef(false);
  useEffect(() => {
    if (supported || warned.current) return;
    warned.current = true;
    toast.error(t('transcribe.unsupported.toastTitle'), { id: 'transcribe-unsupported', description: t('transcribe.unsupported.toastBody') });
  }, [supported, t]);

  // With text on the card, the confirmation is likely next: fetch it ahead.
  useEffect(() => {
    if (hasText) loadConfirm().catch(() => undefined); // fetched ahead only: opening the dialog loads it again
  }, [hasText]);

  useWakeLock(status === 'recording');
  // A starting session brings the card to the top of the screen, just below the sticky header (its
  // scroll margin), and the transcript takes the screen below what the card shows above it: the
  // status, the timer and the newest words are in view, on a phone or a laptop.
  const section = useRef<HTMLElement>(null);
  const transcriptSlot = useRef<HTMLDivElement>(null);
  useTranscriptTop(section, transcriptSlot, status === 'recording' || status === 'paused');
  // A restored transcript comes back the same way: its text is in view, not below the card's controls.
  useEffect(() => {
    if (status === 'recording' || restored) section.current?.scrollIntoView({ block: 'start' });
  }, [status, restored]);
  // From the first Start of the visit on, the upgrade modal no longer opens by itself over the card.
  useEffect(() => {
    if (status !== 'ready') markTranscriptionStarted();
  }, [status]);

  // Free users: "n of 5" recordings kept this month, refreshed once a session has ended;
  // with the month's all kept, the card says before Start that a new session is not kept.
  const isFree = user?.plan === 'free';
  const usage = useMonthlyUsage(isFree);
  const queryClient = useQueryClient();
  const previousStatus = useRef(status);
  useEffect(() => {
    const ended = (previousStatus.current === 'recording' || previousStatus.current === 'paused') && (status === 'stopped' || status === 'ready');
    previousStatus.current = status;
    if (isFree && ended) void queryClient.invalidateQueries({ queryKey: monthlyUsageKey });
  }, [isFree, status, queryClient]);

  const start = () => {
    if (!supported) return;
    markTranscriptionStarted();
    setRecovered(null);
    if (hasText) setDialog('confirm');
    else controller.start();
  };
  const toggle = () => {
    if (status === 'recording') controller.pause();
    else if (status === 'paused') controller.resume();
    else start();
  };
  const stop = () => void controller.stop().catch(logUnexpected);
  // The engine loads on the intent to start, usually before the click lands.
  const prefetch = () => {
    void controller.prefetch().catch(() => undefined);
    void loadExport().catch(() => undefined);
  };
  const save = () => {
    if (!isPro) {
      toast.error(t('transcribe.save.proOnly'), { id: 'transcribe-pro-only' });
      openUpgrade();
      return;
    }
    setDialog('save');
  };
  const restore = () => {
    if (!recovered) return;
    controller.restore(recovered);
    setRecovered(null);
    toast.success(t('transcribe.restore.restored'));
  };
  const discard = () => {
    controller.discardRecovery();
    setRecovered(null);
  };

  useShortcuts(
    {
      toggle: () => supported && toggle(),
      stop: () => (status === 'recording' || status === 'paused') && stop(),
      captions: () => setCaptions((open) => !open),
      help: () => setHelp((open) => !open),
    },
    dialog === null,
  );

  const busy = status === 'recording' || status === 'paused';

  return (
    <Card padded={false} className="overflow-visible">
      {/* data-recovery: "checked" once the device was searched for a transcript to restore (an offer, if any, is then shown). */}
      <section ref={section} aria-labelledby={titleId} data-recovery={recoveryChecked ? 'checked' : 'checking'} className="scroll-mt-20">
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-border px-4 py-3 sm:px-6 sm:py-4">
          <h2 id={titleId} className="font-semibold text-fg">
            {t('home.cardTitle')}
          </h2>
          <SessionBadge controller={controller} status={status} restored={restored} />
          <div className="ml-auto flex items-center gap-1">
            <button
              type="button"
              aria-label={t('transcribe.tools.captions')}
              aria-keyshortcuts={SHORTCUT_KEYS.captions}
              onClick={() => setCaptions(true)}
              className="inline-flex size-9 items-center justify-center rounded-lg text-fg-muted hover:bg-surface-muted hover:text-fg"
            >
              <Icon node={Captions} size={18} />
            </button>
            <ShortcutsHelp open={help} onOpenChange={setHelp} />
          </div>
        </div>

        {/* The controls come before the transcript (on screen and in reading and focus order), so Start
            is on the first screen of a phone or a laptop; on a phone, while a session runs, the locked
            language picker makes way for a transcript that fills the screen. */}
        <div className="flex flex-col gap-5 px-4 py-5 sm:px-6">
          <div className={cn(busy && 'max-sm:hidden')}>
            <LanguagePicker value={language} onChange={pick} isPro={isPro} locked={busy} />
          </div>

          {/* Where the browser has on-device recognition, or while a session runs (its recognizer badge). */}
          {supported && (busy || onDeviceOffered()) && (
            <Suspense fallback={null}>
              <OnDevicePanel controller={controller} language={language} status={status} />
            </Suspense>
          )}

          {!user && <VisitorLimit controller={controller} status={status} limitMs={VISITOR_LIMIT_MS} />}
          {isFree && usage.data !== undefined && (
            <div className="text-xs text-fg-muted">
              <p>{t('automatic.counter', { ...PLAN_VALUES, count: usage.data })}</p>
              {usage.data >= PLAN_VALUES.perMonth && <p className="mt-1 text-amber-800 dark:text-amber-200">{t('automatic.notKept')}</p>}
            </div>
          )}

          {recovered && status === 'ready' && !hasText && (
            <Suspense fallback={null}>
              <RestorePrompt recovered={recovered} onRestore={restore} onDiscard={discard} />
            </Suspense>
          )}

          {supported ? (
            <div className="flex flex-wrap items-center gap-2">
              {(status === 'ready' || status === 'stopped') && (
                <Button
                  size="lg"
                  onClick={start}
                  onPointerEnter={prefetch}
                  onFocus={prefetch}
                  onTouchStart={prefetch}
                  aria-keyshortcuts={SHORTCUT_KEYS.toggle}
                  className="grow sm:grow-0"
                >
                  <Icon node={Mic} size={18} />
                  {t('transcribe.actions.start')}
                </Button>
              )}
              {status === 'recording' && (
                <Button size="lg" variant="secondary" onClick={() => controller.pause()} aria-keyshortcuts={SHORTCUT_KEYS.toggle} className="grow sm:grow-0">
                  <Icon node={Pause} size={18} />
                  {t('transcribe.actions.pause')}
                </Button>
              )}
              {status === 'paused' && (
                <Button size="lg" onClick={() => controller.resume()} aria-keyshortcuts={SHORTCUT_KEYS.toggle} className="grow sm:grow-0">
                  <Icon node={Play} size={18} />
                  {t('transcribe.actions.resume')}
                </Button>
              )}
              {busy && (
                <Button size="lg" variant="danger" onClick={stop} aria-keyshortcuts={SHORTCUT_KEYS.stop} className="grow sm:grow-0">
                  <Icon node={Square} size={18} />
                  {t('transcribe.actions.stop')}
                </Button>
              )}
              {(status === 'paused' || status === 'stopped') && hasText && (
                <Button variant="secondary" onClick={save}>
                  <Icon node={Save} size={18} />
                  {t('transcribe.actions.save')}
                  {!isPro && (
                    <span aria-hidden="true" className="rounded bg-warning-muted px-1 text-[0.65rem] font-bold text-warning-soft-fg">
                      {t('transcribe.proTag')}
                    </span>
                  )}
                </Button>
              )}
              {(status === 'paused' || status === 'stopped') && (
                <Button variant="ghost" onClick={() => controller.clear()}>
                  <Icon node={Trash2} size={18} />
                  {t('transcribe.actions.clear')}
                </Button>
              )}
            </div>
          ) : (
            <Suspense fallback={null}>
              <UnsupportedNotice />
            </Suspense>
          )}

          {Share && user && status !== 'ready' && (
            <div>
              <Suspense fallback={null}>
                <Share sessionId={sessionId} isPro={isPro} setLive={setLive} />
              </Suspense>
            </div>
          )}

          <div ref={transcriptSlot}>
            <TranscriptView store={store} language={textLanguage} status={status} fill={busy} />
          </div>

          {reconnecting && (
            <p role="status" className="text-sm text-amber-800 dark:text-amber-200">
              {t('transcribe.reconnecting', reconnecting)}
            </p>
          )}

          {hasText && status !== 'recording' && (
            <div>
              <Suspense fallback={null}>
                <ExportActions store={store} language={textLanguage} startedAt={controller.startTime} isPro={isPro} />
              </Suspense>
            </div>
          )}
        </div>
      </section>

      {dialog === 'confirm' && (
        <Suspense fallback={null}>
          <ConfirmNewDialog open onOpenChange={(open) => !open && setDialog(null)} onConfirm={() => controller.start()} />
        </Suspense>
      )}
      {dialog === 'save' && (
        <Suspense fallback={null}>
          <SaveDialog
            open
            onOpenChange={(open) => !open && setDialog(null)}
            getInput={() => ({
              text: store.text,
              segments: store.segments,
              durationMs: controller.elapsedMs(),
              language: textLanguage,
              startedAt: controller.startTime,
            })}
            onSaved={() => controller.markSaved()}
          />
        </Suspense>
      )}
      {captions && (
        <Suspense fallback={null}>
          <CaptionMode open onOpenChange={setCaptions} store={store} language={textLanguage} status={status} />
        </Suspense>
      )}
    </Card>
  );
}
