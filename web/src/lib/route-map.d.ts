declare module 'virtual:route-map' {
  import type { AuthLevel, Method, RouteName } from '@app/shared/routes';

  /** Each route's method, path and auth level (built from the shared route table by vite.config.ts). */
  const routeMap: Record<RouteName, { method: Method; path: string; auth: AuthLevel }>;
  export default routeMap;
}
