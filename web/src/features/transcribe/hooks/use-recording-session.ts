import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { RecognitionLanguage } from '@app/shared/constants';
import { loadPageCopy } from '../../../lib/i18n';
import { getSpeechRecognition } from '../engine/speech-recognition';
import { tokenOwner } from '../lib/token-owner';
import { TranscriptionController, type Notice } from '../lib/transcription-controller';

interface Options {
  language: RecognitionLanguage;
  /** Listening limit in ms, or null (signed-in users). */
  limitMs: number | null;
  notify: (notice: Notice) => void;
}

/**
 * The card's controller for the lifetime of the card, with its state as React
 * state. Only status changes re-render the card; transcript text goes straight
 * from the controller's store to the transcript view.
 */
export function useRecordingSession({ language, limitMs, notify }: Options) {
  const latest = useRef({ limitMs, notify });
  latest.current = { limitMs, notify };

  const [controller] = useState(
    () =>
      new TranscriptionController({
        Recognition: getSpeechRecognition(),
        // The copy of what a session can report (recognition errors, the time limit) loads
        // alongside, long before anything is reported.
        loadRuntime: () => {
          loadPageCopy().catch(() => {});
          return import('../lib/runtime');
        },
        limitMs: () => latest.current.limitMs,
        notify: (notice) => latest.current.notify(notice),
        // The stored token's user, known at once (the session check may still be under way).
        owner: () => tokenOwner(),
        language,
      }),
  );
  const snapshot = useSyncExternalStore(controller.subscribe, controller.getSnapshot);

  // The language follows the user's choice whenever no session is under way (and again after one).
  useEffect(() => controller.setLanguage(language), [controller, language, snapshot.status]);

  // Device storage gets the unwritten tail when the page goes away (reload, tab closed, app switch on mobile).
  useEffect(() => {
    const onPageHide = () => controller.persistNow();
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) controller.pageShown();
    };
    window.addEventListener('pagehide', onPageHide);
    window.addEventListener('pageshow', onPageShow);
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      window.removeEventListener('pageshow', onPageShow);
    };
  }, [controller]);

  useEffect(() => () => controller.dispose(), [controller]);

  return { controller, ...snapshot };
}
