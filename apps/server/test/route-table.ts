import type { FastifySchema, RouteOptions } from 'fastify';

/**
 * Collects `METHOD path` of every route as Fastify adds it (its `onRoute` hook), HEAD routes
 * included, and the schema each was declared with (the contract's zod schemas), by the same key.
 */
export function routeCollector() {
  const routes: string[] = [];
  const schemas = new Map<string, FastifySchema>();
  return {
    routes,
    schemas,
    onRoute(route: RouteOptions) {
      for (const method of [route.method].flat()) {
        routes.push(`${method} ${route.url}`);
        if (route.schema) schemas.set(`${method} ${route.url}`, route.schema);
      }
    },
  };
}
