import { LIVE_GRACE_SECONDS, type RecognitionLanguage } from '@app/shared/constants';
import type { LiveStatus } from '@app/shared/schemas/live';

/** What decides what a live link shows: the share and the session it shows. */
export interface ShareState {
  /** Epoch seconds: the link dies then (the TTL attribute; DynamoDB deletes it lazily, so always compare). */
  expiresAt: number;
  /** Where the viewers' text begins: the session's length when sharing began (0: all of it). */
  startOffset?: number;
  stoppedAt?: string;
  /** The session's length, language and last change when the speaker stopped sharing. */
  endOffset?: number;
  endLanguage?: RecognitionLanguage;
  endUpdatedAt?: string;
}
export interface SessionState {
  isCompleted: boolean;
  length: number;
  language: RecognitionLanguage;
  updatedAt: string;
}

export interface LiveWindow {
  status: LiveStatus;
  /** Viewers may read the text from `start` up to `end` (Infinity: as far as the session goes; null: nothing at all). */
  start: number;
  end: number | null;
  language: RecognitionLanguage;
  updatedAt: string;
}

const seconds = (iso: string) => Date.parse(iso) / 1000;

/**
 * What a live link shows at `now` (epoch seconds):
 * - live (not stopped, not expired, its session running): the text from where sharing began on;
 * - stopped: the text up to where the session was then, with the language and time of then,
 *   so the link reveals nothing newer, not even that the speaker goes on;
 * - its session completed: the whole shared text;
 * - a stopped or completed link shows that for LIVE_GRACE_SECONDS (viewers get the last words),
 *   then no text at all; an expired one shows no text whatever its state.
 */
export function liveWindow(share: ShareState, session: SessionState, now: number): LiveWindow {
  const start = share.startOffset ?? 0;
  const stopped = share.stoppedAt !== undefined;
  const endedAt = Math.min(stopped ? seconds(share.stoppedAt!) : Infinity, session.isCompleted ? seconds(session.updatedAt) : Infinity);
  const expired = now >= share.expiresAt;
  const status: LiveStatus = !expired && endedAt === Infinity ? 'live' : 'ended';
  const cut = expired || now > endedAt + LIVE_GRACE_SECONDS;
  const end = cut ? null : stopped ? Math.max(start, share.endOffset ?? start) : session.isCompleted ? Math.max(start, session.length) : Infinity;
  if (stopped) {
    return { status, start, end, language: share.endLanguage ?? session.language, updatedAt: share.endUpdatedAt ?? share.stoppedAt! };
  }
  // Past its expiry a running session's later changes are not the link's to tell.
  const expiresIso = new Date(share.expiresAt * 1000).toISOString();
  const updatedAt = expired && session.updatedAt > expiresIso ? expiresIso : session.updatedAt;
  return { status, start, end, language: session.language, updatedAt };
}
