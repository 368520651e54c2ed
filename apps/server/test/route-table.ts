import type { FastifyInstance } from 'fastify';

/**
 * `METHOD path` of every route the server has, read from Fastify's own printout of its router
 * (`printRoutes({ commonPrefix: false })`: one node per line, children indented four columns
 * under the path they extend, methods in parentheses).
 */
export function routeTable(app: FastifyInstance): string[] {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    if (!line.trim()) continue;
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) throw new Error(`oväntad rad i routertabellen: ${line}`);
    const depth = match[1]!.length / 4;
    stack.length = depth;
    const path = (stack[depth - 1] ?? '') + match[2]!;
    stack.push(path);
    for (const method of match[3]?.split(', ') ?? []) routes.push(`${method} ${path}`);
  }
  return routes;
}
