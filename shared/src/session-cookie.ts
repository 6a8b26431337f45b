import { SESSION_COOKIE } from './constants.ts';

/**
 * The session token among a response's Set-Cookie values: undefined when it set none, '' when it
 * cleared it. Scripts (journeys' API calls, benchmarks) send it back as a Bearer header.
 */
export function sessionTokenOf(setCookies: readonly string[]): string | undefined {
  for (const value of setCookies) {
    if (value.startsWith(`${SESSION_COOKIE}=`)) return value.slice(SESSION_COOKIE.length + 1).split(';')[0];
  }
  return undefined;
}

/** The Set-Cookie values of a header list (Playwright's `headersArray()`). */
export const setCookiesOf = (headers: readonly { name: string; value: string }[]): string[] =>
  headers.filter((h) => h.name.toLowerCase() === 'set-cookie').map((h) => h.value);
