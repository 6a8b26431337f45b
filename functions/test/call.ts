import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { SESSION_COOKIE, TOKEN_TTL_SECONDS } from '@app/shared/constants';
import { matchPath, routes, type RouteName } from '@app/shared/routes';
import { db } from '../src/db/client.ts';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '../src/lib/auth.ts';
import type { LambdaHandler } from '../src/lib/http.ts';
import { toEvent } from '../src/local/event.ts';
import { instrument, recordRoute } from './grant-recorder.ts';

export interface CallOptions {
  body?: unknown;
  /** Sent as-is (not JSON-encoded) when a string. */
  rawBody?: string;
  /** Sent as a Bearer header, as scripts do. */
  token?: string;
  /** Sent in the session cookie, as browsers do. */
  cookie?: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  params?: Record<string, string>;
  sourceIp?: string;
}

export interface CallResult<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Record<string, unknown>;
}

/** A route's path with its `{parameters}` filled in (URL-encoded), to request it from a server. */
export function pathOf(name: RouteName, params: Record<string, string> = {}): string {
  let path: string = routes[name].path;
  for (const [k, v] of Object.entries(params)) path = path.replace(`{${k}}`, encodeURIComponent(v));
  return path;
}

/** A route's key, `METHOD /path` as the route table spells it (API Gateway's route key; the local server counts calls by it). */
export const routeKey = (name: RouteName) => `${routes[name].method} ${routes[name].path}`;

/**
 * Invokes a route's real handler module with the API Gateway REST API event (payload 1.0) Lambda would get, recording
 * the DynamoDB actions it uses as evidence for the route's IAM grant (grant-recorder.ts).
 */
export async function call<T = Record<string, unknown>>(name: RouteName, options: CallOptions = {}): Promise<CallResult<T>> {
  const def = routes[name];
  const { handler } = (await import(/* @vite-ignore */ new URL(`../src/handlers/${def.handler}.ts`, import.meta.url).href)) as { handler: LambdaHandler };
  const path = pathOf(name, options.params);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.cookie) headers.cookie = `${SESSION_COOKIE}=${options.cookie}`;
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const event = toEvent({
    method: def.method,
    path,
    routePath: def.path,
    pathParameters: matchPath(def.path, path) ?? {},
    rawQueryString: new URLSearchParams(options.query ?? {}).toString(),
    headers,
    body,
    sourceIp: options.sourceIp ?? '127.0.0.1',
  });
  instrument(db());
  const result = await recordRoute(name, () => handler(event));
  return {
    status: result.statusCode ?? 200,
    body: JSON.parse(result.body ?? 'null') as T,
    headers: (result.headers ?? {}) as Record<string, unknown>,
  };
}

let seq = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}-${Date.now().toString(36)}-${seq++}@example.com`;

/** The session token a response set in the session cookie; '' when it cleared the cookie; undefined when it set none. */
export function sessionCookieOf(res: Pick<CallResult, 'headers'>): string | undefined {
  const header = res.headers['set-cookie'];
  if (typeof header !== 'string') return undefined;
  const match = new RegExp(`^${SESSION_COOKIE}=([^;]*);`).exec(header);
  if (!match) throw new Error(`not the session cookie: ${header}`);
  return match[1];
}

/** Registers a user through the real route and returns its session token (from the session cookie) and id. */
export async function registerUser(overrides: Partial<{ name: string; email: string; password: string }> = {}) {
  const input = { name: 'Ana Test', email: uniqueEmail(), password: 'correct-horse-9', ...overrides };
  const res = await call<{ user: { id: string; email: string } }>('register', {
    body: { ...input, recaptchaToken: 'test-pass' },
  });
  if (res.status !== 200) throw new Error(`register failed: ${JSON.stringify(res.body)}`);
  const token = sessionCookieOf(res);
  if (!token) throw new Error('register set no session cookie');
  return { ...input, id: res.body.user.id, token };
}

/** Mail written to the test outbox, oldest first. */
export async function outbox(): Promise<{ to: string; subject: string; text: string; replyTo?: string }[]> {
  const dir = process.env.OUTBOX_DIR!;
  const files = (await readdir(dir)).sort();
  return Promise.all(files.map(async (f) => JSON.parse(await readFile(join(dir, f), 'utf8'))));
}

/** A session token as versions before the session cookie signed it (no session id, no sign-in time), `ageSeconds` old. */
export async function legacyToken(userId: string, ageSeconds = 0, tokenVersion = 0): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ tv: tokenVersion })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setIssuedAt(now - ageSeconds)
    .setExpirationTime(now - ageSeconds + TOKEN_TTL_SECONDS)
    .sign(new TextEncoder().encode(process.env.JWT_SECRET!));
}
