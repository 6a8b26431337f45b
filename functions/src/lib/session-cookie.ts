import { SESSION_COOKIE } from '@app/shared/constants';
import type { APIGatewayProxyEvent } from 'aws-lambda';

/**
 * The session cookie (docs/sessions.md): HttpOnly, so no page script can read the token; Secure
 * (browsers keep Secure cookies of http://localhost too, so the local server needs no TLS);
 * SameSite=Strict, so no request another site starts carries it; `__Host-` prefixed, Path=/ and
 * no Domain, so only this origin ever gets it. It lives as long as the token in it.
 */
const ATTRIBUTES = 'Path=/; HttpOnly; Secure; SameSite=Strict';

export function sessionCookie(token: string, expiresAt: number, now = Math.floor(Date.now() / 1000)): string {
  return `${SESSION_COOKIE}=${token}; Max-Age=${Math.max(0, expiresAt - now)}; ${ATTRIBUTES}`;
}

/** Tells the browser to drop the session cookie. */
export const clearedSessionCookie = (): string => `${SESSION_COOKIE}=; Max-Age=0; ${ATTRIBUTES}`;

/**
 * The request's cookies by name. A browser may send cookies in several `Cookie` headers (HTTP/2);
 * API Gateway's `headers` keeps only the last of a repeated name, `multiValueHeaders` every one.
 * The first value of a name wins, as browsers send the most specific cookie first.
 */
export function requestCookies(event: Pick<APIGatewayProxyEvent, 'headers' | 'multiValueHeaders'>): Record<string, string> {
  const lines: string[] = [];
  const multi = Object.entries(event.multiValueHeaders ?? {}).filter(([name]) => name.toLowerCase() === 'cookie');
  if (multi.length > 0) for (const [, values] of multi) lines.push(...(values ?? []));
  else for (const [name, value] of Object.entries(event.headers ?? {})) if (name.toLowerCase() === 'cookie' && value) lines.push(value);
  const out: Record<string, string> = {};
  for (const line of lines) {
    for (const pair of line.split(';')) {
      const at = pair.indexOf('=');
      if (at <= 0) continue;
      const name = pair.slice(0, at).trim();
      if (name && !(name in out)) out[name] = pair.slice(at + 1).trim();
    }
  }
  return out;
}
