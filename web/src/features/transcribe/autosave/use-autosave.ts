import { useEffect, useMemo } from 'react';
import type { RecognitionLanguage } from '@app/shared/constants';
import type { Segment } from '@app/shared/schemas/transcriptions';
import { useUser } from '../../../lib/auth';
import type { TextSource } from '../lib/transcript-store';
import { autosaveEngineFor } from './autosave-engine';

/**
 * What the transcription card drives:
 * - start: a new session (Start);
 * - update: on every change of the final text (append-only within a session);
 * - saveNow: on Pause;
 * - complete: on Stop and Clear (a final save, then the session is marked finished).
 * And what live sharing reads and drives (see the engine): sessionId, subscribe, setLive.
 */
export interface SessionAutosave {
  start(language: RecognitionLanguage): void;
  update(snapshot: { text: TextSource; segments: Segment[]; durationSec: number; language: RecognitionLanguage }): void;
  saveNow(): void;
  complete(): void;
}

export interface Autosave extends SessionAutosave {
  setLive(on: boolean): void;
  sessionId(): string | null;
  subscribe(listener: () => void): () => void;
}

const noop: Autosave = { start() {}, update() {}, saveNow() {}, complete() {}, setLive() {}, sessionId: () => null, subscribe: () => () => undefined };

/**
 * Autosave for a signed-in user; with `enabled: false` (visitors) every method is a no-op.
 * The engine outlives the component: text queued when the card unmounts is still sent.
 * The returned object is stable while the user stays the same.
 */
export function useAutosave(options: { enabled: boolean }): Autosave {
  const user = useUser();
  const userId = options.enabled ? user?.id : undefined;

  useEffect(() => {
    if (userId) autosaveEngineFor(userId).resumePending();
  }, [userId]);

  return useMemo<Autosave>(() => {
    if (!userId) return noop;
    // The engine is looked up at each call, so a session that ended elsewhere never gets a stale one.
    const engine = () => autosaveEngineFor(userId);
    return {
      start: (language) => engine().start(language),
      update: (snapshot) => engine().update(snapshot),
      saveNow: () => engine().saveNow(),
      complete: () => engine().complete(),
      setLive: (on) => engine().setLive(on),
      sessionId: () => engine().sessionId(),
      subscribe: (listener) => engine().subscribe(listener),
    };
  }, [userId]);
}
