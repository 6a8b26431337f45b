import { AUTOSAVE_INTERVAL_MS } from '@app/shared/constants';
import { request } from '../../../lib/api';
import { announcePlanStatus } from '../../../lib/plan-status';
import type { Delta } from './delta';
import { warn } from './log';

/**
 * The autosave's requests: session id, save (a delta) and complete, sent with the user's
 * own session only, and the back-off the server asks for.
 *
 * A 503 (maintenance, or the service unavailable) or a 429 keeps everything queued and
 * backs off: no request before RETRY_BACKOFF_MS, doubling up to RETRY_BACKOFF_MAX_MS,
 * then the 30-second tick sends the text once the server takes writes again.
 */

/** After a 503 or 429, no request for this long; doubled at each refusal in a row, up to the maximum. */
export const RETRY_BACKOFF_MS = AUTOSAVE_INTERVAL_MS;
export const RETRY_BACKOFF_MAX_MS = 5 * 60_000;

export interface Reply {
  status: number;
  data: Record<string, unknown> | undefined;
}

/** The browser says it is online (or cannot tell). */
export const online = () => typeof navigator === 'undefined' || navigator.onLine !== false;

/** Not signed in as the user: status 0, as for a network failure. */
const NO_REPLY: Reply = { status: 0, data: undefined };

/** The answer's body, when it is a JSON object. */
const asReply = ({ status, data }: { status: number; data: unknown }): Reply => ({
  status,
  data: typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : undefined,
});

export interface Transport {
  /** `key`: the session's idempotency key; every request with it gets the same session. */
  sessionId(key: string): Promise<Reply>;
  save(delta: Delta, keepalive?: boolean): Promise<Reply>;
  complete(sessionId: string, keepalive?: boolean): Promise<Reply>;
  /** Notes an answer: true for a 503 or 429 (logged; everything stays queued and requests wait), which any other answer ends. */
  refused(reply: Reply): boolean;
  /** The server asked to wait and the time has not come. */
  holding(): boolean;
}

/** `sessionUser`: the user's own id while the device is signed in as that user, else null. */
export function createTransport({ sessionUser, now }: { sessionUser: () => string | null; now: () => number }): Transport {
  /** The server asked to wait (503, 429): no request before this time. */
  let holdUntil = 0;
  let holdFor = 0;
  /** Sends in the user's own session only; signed in as anyone else, nothing goes out. */
  const send = (call: (asUser: string) => Promise<{ status: number; data: unknown }>) => {
    const user = sessionUser();
    return user ? call(user).then(asReply) : Promise.resolve(NO_REPLY);
  };

  return {
    sessionId: (key) => send((asUser) => request('autosaveSessionId', { query: { key }, asUser })),
    // A save's answer carries the user's plan as it is now: the plan watch takes it from there.
    save: (delta, keepalive = false) =>
      send((asUser) => request('autosaveSave', { body: delta, asUser, keepalive })).then((reply) => {
        if (reply.status === 200) announcePlanStatus(reply.data?.plan);
        return reply;
      }),
    complete: (sessionId, keepalive = false) => send((asUser) => request('autosaveComplete', { body: { sessionId }, asUser, keepalive })),
    refused(reply) {
      if (reply.status !== 503 && reply.status !== 429) {
        if (reply.status !== 0) holdFor = 0;
        return false;
      }
      holdFor = Math.min(Math.max(holdFor * 2, RETRY_BACKOFF_MS), RETRY_BACKOFF_MAX_MS);
      holdUntil = now() + holdFor;
      const why = reply.data?.code === 'maintenance' ? 'the service is in maintenance' : `the server refused for now (${reply.status})`;
      warn(`${why}; the text stays queued, next try in ${Math.round(holdFor / 1000)} s`);
      return true;
    },
    holding: () => now() < holdUntil,
  };
}
