import type { CaptionStyle } from '@app/shared/caption-style';
import { LIVE_POLL_MS, type ProfanityMode, type RecognitionLanguage } from '@app/shared/constants';
import { api, ApiError } from '../../../lib/api';

/** Where a follower is: waiting for the first answer, following, ended by the speaker, or a code that does not exist. */
export type FollowState = 'loading' | 'live' | 'ended' | 'not-found';

export interface FollowEvents {
  /** Text the viewer has not had yet, in order, each piece once. */
  text(piece: string): void;
  /** The share's recognition language (every answer carries it). */
  language(language: RecognitionLanguage): void;
  /** How the share shows profanity (every answer carries it; before its text). */
  mask?(mode: ProfanityMode, language: RecognitionLanguage): void;
  /** The speaker's caption style (every answer carries it; undefined when the speaker saved none). */
  style?(style: CaptionStyle | undefined): void;
  state(state: FollowState): void;
  /** A request failed (offline, a server error) and is being retried; false once one succeeds again. */
  reconnecting(on: boolean): void;
}

/** The longest wait between two tries while the server cannot be reached. */
export const RETRY_MAX_MS = 8_000;

/**
 * Follows a live share: asks for the text from the offset it has (`next` of the last answer), so
 * a viewer never misses or repeats text, across failures too. The server holds a request from
 * the end of the text until there is more (a long poll), so the next request goes at once after
 * an answer with text, and no sooner than LIVE_POLL_MS after the last one otherwise (the hold ran
 * out, or a server that does not hold). A failed
 * request is retried with a doubling wait (up to RETRY_MAX_MS; at once when the browser says it
 * is online again). It stops at 'ended' (the speaker stopped, the link expired or the session
 * completed) and at 'not-found' (a wrong or expired code). Returns the stop function.
 */
export function followLive(code: string, events: FollowEvents): () => void {
  const abort = new AbortController();
  let next = 0;
  let failures = 0;
  let wake: (() => void) | null = null;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });
  const onOnline = () => wake?.();
  window.addEventListener('online', onOnline);

  async function run(): Promise<void> {
    while (!abort.signal.aborted) {
      const asked = Date.now();
      let brought = false;
      try {
        const view = await api('viewLiveShare', { params: { code }, query: { after: String(next) }, signal: abort.signal });
        if (abort.signal.aborted) return;
        // The answer's text starts at `from` (where the viewer's text ends, or before it: the
        // start of the stored chunk it asked inside): only what comes after `next` is new.
        const piece = view.next > next ? view.text.slice(Math.max(0, next - view.from)) : '';
        events.language(view.language);
        // Answers from before shares carried a mode have none: as spoken.
        events.mask?.((view as { mask?: ProfanityMode }).mask ?? 'off', view.language);
        events.style?.(view.style);
        if (piece) {
          next = view.next;
          brought = true;
          events.text(piece);
        }
        if (failures) events.reconnecting(false);
        failures = 0;
        events.state(view.status);
        if (view.status === 'ended') return;
      } catch (err) {
        if (abort.signal.aborted) return;
        if (err instanceof ApiError && (err.status === 404 || err.status === 400)) {
          events.state('not-found');
          return;
        }
        failures++;
        if (failures === 1) events.reconnecting(true);
        await sleep(Math.min(LIVE_POLL_MS * 2 ** failures, RETRY_MAX_MS));
        continue;
      }
      // The server held the request until there was text (or its hold ran out): after text, ask
      // again at once; otherwise no sooner than LIVE_POLL_MS after the last request.
      if (!brought) await sleep(Math.max(0, LIVE_POLL_MS - (Date.now() - asked)));
    }
  }

  void run();
  return () => {
    abort.abort();
    wake?.();
    window.removeEventListener('online', onOnline);
  };
}
