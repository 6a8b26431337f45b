import type { RouteName } from '@app/shared/routes';
import routeMap from 'virtual:route-map';
import { routeDef } from '../lib/api';

/** A request as a route of the table: its name and the values in its path and query. */
export interface RouteCall {
  route: RouteName | undefined;
  params: Record<string, string>;
  query: Record<string, string>;
}

const matchers = (Object.keys(routeMap) as RouteName[]).map((name) => {
  const def = routeDef(name);
  const keys: string[] = [];
  const source = def.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, key: string) => {
    keys.push(key);
    return '([^/]+)';
  });
  return { name: name as RouteName, method: def.method, pattern: new RegExp(`^${source}$`), keys };
});

/**
 * Which route of the table a request calls (tests fake and check the API by route name, never
 * by literal path); a literal path segment wins over a placeholder (`session-id` over `{id}`).
 */
export function routeOf(method: string, url: string): RouteCall {
  const { pathname, searchParams } = new URL(url, 'http://localhost');
  const query = Object.fromEntries(searchParams);
  let best: { name: RouteName; params: Record<string, string>; placeholders: number } | undefined;
  for (const m of matchers) {
    if (m.method !== method.toUpperCase()) continue;
    const found = m.pattern.exec(pathname);
    if (!found || (best && best.placeholders <= m.keys.length)) continue;
    best = { name: m.name, params: Object.fromEntries(m.keys.map((k, i) => [k, decodeURIComponent(found[i + 1]!)])), placeholders: m.keys.length };
  }
  return { route: best?.name, params: best?.params ?? {}, query };
}
