import { AUTOSAVE_INTERVAL_MS, DEV_BYPASS_HEADER } from '@app/shared/constants';
import { getDevBypassToken } from '../../../lib/api';
import { warn } from './log';

/**
 * The autosave's requests: session id, save (a delta) and complete, sent with the user's
 * own token only, and the back-off the server asks for.
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

interface Paths {
  sessionId: string;
  save: string;
  complete: string;
}
let pathsCache: Paths | undefined;
/** The route table is loaded lazily (it carries zod), as the API client does. */
async function loadPaths(): Promise<Paths> {
  if (pathsCache) return pathsCache;
  const { routes } = await import('@app/shared/routes');
  pathsCache = { sessionId: routes.autosaveSessionId.path, save: routes.autosaveSave.path, complete: routes.autosaveComplete.path };
  return pathsCache;
}

/** The browser says it is online (or cannot tell). */
export const online = () => typeof navigator === 'undefined' || navigator.onLine !== false;

/** No token, or a network failure: status 0. */
const NO_REPLY: Reply = { status: 0, data: undefined };

async function call(token: string | null, method: 'GET' | 'POST', path: string, body: string | undefined, keepalive = false): Promise<Reply> {
  if (!token) return NO_REPLY;
  const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${token}` };
  // A developer past maintenance mode saves as the rest of the app does.
  const bypass = getDevBypassToken();
  if (bypass) headers[DEV_BYPASS_HEADER] = bypass;
  if (body !== undefined) headers['content-type'] = 'application/json';
  try {
    const response = await fetch(path, { method, headers, body, keepalive });
    const text = await response.text().catch(() => '');
    let data: Record<string, unknown> | undefined;
    try {
      const parsed: unknown = text ? JSON.parse(text) : undefined;
      if (typeof parsed === 'object' && parsed !== null) data = parsed as Record<string, unknown>;
    } catch {
      data = undefined;
    }
    return { status: response.status, data };
  } catch {
    return NO_REPLY;
  }
}

export interface Transport {
  /** Loads the route paths; the requests below need them. */
  ready(): Promise<unknown>;
  /** The route paths are loaded: requests can go out synchronously (a page going away). */
  isReady(): boolean;
  /** `key`: the session's idempotency key; every request with it gets the same session. */
  sessionId(key: string): Promise<Reply>;
  /** `body`: a delta's JSON. */
  save(body: string, keepalive?: boolean): Promise<Reply>;
  complete(sessionId: string, keepalive?: boolean): Promise<Reply>;
  /** Notes an answer: true for a 503 or 429 (logged; everything stays queued and requests wait), which any other answer ends. */
  refused(reply: Reply): boolean;
  /** The server asked to wait and the time has not come. */
  holding(): boolean;
}

/** `getToken`: the user's own token, or null when the device is not signed in as that user. */
export function createTransport({ getToken, now }: { getToken: () => string | null; now: () => number }): Transport {
  /** The server asked to wait (503, 429): no request before this time. */
  let holdUntil = 0;
  let holdFor = 0;
  const paths = () => pathsCache!;

  return {
    ready: loadPaths,
    isReady: () => pathsCache !== undefined,
    sessionId: (key) => call(getToken(), 'GET', `${paths().sessionId}?${new URLSearchParams({ key })}`, undefined),
    save: (body, keepalive = false) => call(getToken(), 'POST', paths().save, body, keepalive),
    complete: (sessionId, keepalive = false) => call(getToken(), 'POST', paths().complete, JSON.stringify({ sessionId }), keepalive),
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
