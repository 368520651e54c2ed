import type { FastifySchema, RouteOptions } from 'fastify';

/**
 * Collects `METHOD path` of every route as Fastify adds it (its `onRoute` hook), HEAD routes
 * included, the schema each was declared with (the contract's zod schemas) by the same key, and
 * apart those that declare themselves an export of personal data (audit/personal-data-exports.ts).
 */
export function routeCollector() {
  const routes: string[] = [];
  const schemas = new Map<string, FastifySchema>();
  const personalDataExports: string[] = [];
  return {
    routes,
    schemas,
    personalDataExports,
    onRoute(route: RouteOptions) {
      for (const method of [route.method].flat()) {
        routes.push(`${method} ${route.url}`);
        if (route.schema) schemas.set(`${method} ${route.url}`, route.schema);
        if (route.config?.personalDataExport && method !== 'HEAD') personalDataExports.push(`${method} ${route.url}`);
      }
    },
  };
}
