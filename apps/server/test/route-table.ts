import type { RouteOptions } from 'fastify';

/**
 * Collects `METHOD path` of every route as Fastify adds it (its `onRoute` hook), HEAD routes
 * included, and apart those that declare themselves an export of personal data (audit/personal-data-exports.ts).
 */
export function routeCollector() {
  const routes: string[] = [];
  const personalDataExports: string[] = [];
  return {
    routes,
    personalDataExports,
    onRoute(route: RouteOptions) {
      for (const method of [route.method].flat()) {
        routes.push(`${method} ${route.url}`);
        if (route.config?.personalDataExport && method !== 'HEAD') personalDataExports.push(`${method} ${route.url}`);
      }
    },
  };
}
