declare module 'virtual:route-map' {
  import type { RouteName } from '@app/shared/routes';

  /** Each route's method, path and auth level, space-separated (built from the shared route table by vite.config.ts; read with routeDef in lib/api.ts). */
  const routeMap: Record<RouteName, string>;
  export default routeMap;
}
