import type { z } from 'zod';
import { DEV_BYPASS_HEADER, SESSION_USER_HEADER, STORAGE_KEYS } from '@app/shared/constants';
import { fillPath } from '@app/shared/route-paths';
import type { AuthLevel, Method, RouteName, RouteResponse, Routes } from '@app/shared/routes';
import type { ErrorResponse } from '@app/shared/schemas/common';
import routeMap from 'virtual:route-map';
import en from '../locales/en.json';
import { endSessionFromServer, getSessionUser } from './auth-token';
import { reportReachable } from './connectivity';
import { i18n } from './i18n';
import { readStorage } from './storage';

/** What the caller sends for one part of a route: the input type of that part's schema. */
type Part<N extends RouteName, K extends 'body' | 'params' | 'query'> = Routes[N] extends {
  [P in K]: infer S extends z.ZodType;
}
  ? z.input<S>
  : undefined;

type Slot<K extends string, T> = [T] extends [undefined]
  ? { [P in K]?: undefined }
  : object extends T
    ? { [P in K]?: T }
    : { [P in K]: T };

/**
 * A call's transport options: `keepalive` (a request that outlives the page, e.g. on pagehide),
 * `cache`, `signal`, and `asUser`, whose session the call is made in (the browser sends the
 * session cookie by itself): by default the signed-in user's; a given user id (the autosave sends
 * queued text only in its own user's session: while the device is signed in as anyone else, the
 * call is not sent and answers status 0); or null, an anonymous call (no cookie, no maintenance
 * bypass). `bearer` sends a token in the Authorization header (only the move of an earlier
 * version's stored token into the cookie does).
 */
export interface CallOptions {
  signal?: AbortSignal;
  keepalive?: boolean;
  cache?: RequestCache;
  asUser?: string | null;
  bearer?: string;
}

export type ApiOptions<N extends RouteName> = Slot<'body', Part<N, 'body'>> &
  Slot<'params', Part<N, 'params'>> &
  Slot<'query', Part<N, 'query'>> &
  CallOptions;

type ApiArgs<N extends RouteName> = object extends ApiOptions<N> ? [options?: ApiOptions<N>] : [options: ApiOptions<N>];

/** Error codes the UI has a translation for (`errors.codes.*`). */
export type KnownErrorCode = keyof typeof en.errors.codes;
const isKnownCode = (code: string | undefined): code is KnownErrorCode =>
  code !== undefined && Object.hasOwn(en.errors.codes, code);

/**
 * Every failed call: an HTTP error answer, or a network failure (status 0, code 'network').
 * Maintenance mode refusing a write is status 503 with code 'maintenance'.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string | undefined;
  readonly requiresPro: boolean;
  readonly secondsLeft: number | undefined;
  /** An edit's 409 `version_conflict`: the version the server holds now. */
  readonly version: number | undefined;
  /** The server's own `error` text, when the answer carried one. */
  readonly serverMessage: string | undefined;

  constructor(init: { status: number; message: string; code?: string; requiresPro?: boolean; secondsLeft?: number; version?: number; serverMessage?: string }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.requiresPro = init.requiresPro ?? false;
    this.secondsLeft = init.secondsLeft;
    this.version = init.version;
    this.serverMessage = init.serverMessage;
  }
}

/**
 * The message to show for a failure: the translation of its code when one exists,
 * else the server's text; undefined when neither exists (the caller picks its own
 * fallback, e.g. 'Erro ao fazer login'). Call it while rendering so it follows the
 * UI language.
 */
export function describeError(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (isKnownCode(error.code)) return i18n.t(`errors.codes.${error.code}`);
  return error.serverMessage;
}

/** The maintenance bypass token this device earned with the dev password, if any. */
export const getDevBypassToken = (): string | null => readStorage(STORAGE_KEYS.devBypass);

/** A route's answer: its status (0 when no answer came: a network failure) and its JSON body, if any. */
export interface Reply {
  status: number;
  data: unknown;
}

/** A route's method, path and auth level, from the build's route map (`POST /api/auth/login none`). */
export function routeDef(name: RouteName): { method: Method; path: string; auth: AuthLevel } {
  const [method, path, auth] = routeMap[name].split(' ') as [Method, string, AuthLevel];
  return { method, path, auth };
}

/**
 * The one request core: every call to the API goes through it. It sends one route of the shared
 * route table (at run time only the route's method, path and auth level are needed,
 * `virtual:route-map`, so no schema and no zod load with it) with the session cookie (the browser
 * adds it, and takes the server's renewed one) and the maintenance bypass, and never throws but
 * for an aborted call. A route that needs a session and refuses the caller's ends the session on
 * this device, while the device is still signed in as the user the call was made for (read when
 * the call starts, so a logout may call and then forget the user).
 */
export async function request<N extends RouteName>(name: N, ...[options]: ApiArgs<N>): Promise<Reply> {
  const opts = (options ?? {}) as CallOptions & { body?: unknown; params?: Record<string, unknown>; query?: Record<string, unknown> };
  const def = routeDef(name);
  const user = opts.asUser === undefined ? getSessionUser() : opts.asUser;
  if (typeof opts.asUser === 'string' && getSessionUser() !== opts.asUser) return { status: 0, data: undefined };

  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.bearer) headers.authorization = `Bearer ${opts.bearer}`;
  // The server refuses it if the cookie it gets is another user's (signed in since this check).
  if (typeof opts.asUser === 'string') headers[SESSION_USER_HEADER] = opts.asUser;
  const bypass = opts.asUser === null ? null : getDevBypassToken();
  if (bypass) headers[DEV_BYPASS_HEADER] = bypass;
  let body: string | undefined;
  if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }

  let response: Response;
  try {
    const init: RequestInit = { method: def.method, headers, body, signal: opts.signal, credentials: opts.asUser === null ? 'omit' : 'same-origin' };
    if (opts.keepalive) init.keepalive = true;
    if (opts.cache) init.cache = opts.cache;
    response = await fetch(fillPath(def.path, opts.params, opts.query), init);
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    reportReachable(false);
    return { status: 0, data: undefined };
  }

  reportReachable(true);
  const data = await readJson(response);
  const stillSignedIn = user !== null && getSessionUser() === user;
  if (response.status === 401 && stillSignedIn && def.auth !== 'none') endSessionFromServer();
  return { status: response.status, data };
}

/** Calls one route and returns its typed answer; a failure throws ApiError (a network failure: status 0, code 'network'). */
export async function api<N extends RouteName>(name: N, ...args: ApiArgs<N>): Promise<RouteResponse<N>> {
  const { status, data } = await request(name, ...args);
  if (status === 0) throw new ApiError({ status: 0, code: 'network', message: i18n.t('errors.codes.network') });
  if (status < 200 || status > 299) throw toApiError(status, data);
  return data as RouteResponse<N>;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function toApiError(status: number, data: unknown): ApiError {
  const body = (typeof data === 'object' && data !== null ? data : {}) as Partial<Record<keyof ErrorResponse, unknown>>;
  const serverMessage = typeof body.error === 'string' && body.error.trim() ? body.error : undefined;
  return new ApiError({
    status,
    message: serverMessage ?? i18n.t('errors.request'),
    serverMessage,
    code: typeof body.code === 'string' ? body.code : undefined,
    requiresPro: body.requiresPro === true,
    secondsLeft: typeof body.secondsLeft === 'number' && Number.isFinite(body.secondsLeft) ? Math.max(0, Math.ceil(body.secondsLeft)) : undefined,
    version: typeof body.version === 'number' && Number.isInteger(body.version) ? body.version : undefined,
  });
}
