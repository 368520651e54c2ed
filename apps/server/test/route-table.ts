import type { RouteOptions } from 'fastify';

/** Collects `METHOD path` of every route as Fastify adds it (its `onRoute` hook), HEAD routes included. */
export function routeCollector() {
  const routes: string[] = [];
  return {
    routes,
    onRoute(route: RouteOptions) {
      for (const method of [route.method].flat()) routes.push(`${method} ${route.url}`);
    },
  };
}
