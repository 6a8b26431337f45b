/**
 * Route paths in API Gateway's syntax (`/transcriptions/{id}`), filled and matched. No schemas
 * here: the web app's request core uses these without loading the route table's.
 */

/** Fills a route path's `{name}` placeholders from params (encoded) and appends the query (empty values left out). */
export function fillPath(path: string, params?: Record<string, unknown>, query?: Record<string, unknown>): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = params?.[key];
    if (value === undefined || value === null || value === '') throw new Error(`Missing path parameter "${key}" for ${path}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') search.append(key, String(value));
  }
  const qs = search.toString();
  return qs ? `${filled}?${qs}` : filled;
}

/** Turns an API Gateway path (`/x/{id}`) into a matcher giving its parameters, or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split('/');
  const s = path.split('/');
  if (p.length !== s.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    const part = p[i]!;
    const seg = s[i]!;
    if (part.startsWith('{') && part.endsWith('}')) {
      if (!seg) return null;
      try {
        params[part.slice(1, -1)] = decodeURIComponent(seg);
      } catch {
        return null;
      }
    } else if (part !== seg) return null;
  }
  return params;
}
