import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { compressBody, sendCompressed } from '../lib/compressed-body.js';

const here = path.dirname(fileURLToPath(import.meta.url));
// From the sources (src/plugins) or from the bundle (dist): apps/web/dist either way.
const defaultWebDist =
  [path.resolve(here, '../../../web/dist'), path.resolve(here, '../../web/dist')].find((dir) =>
    fs.existsSync(path.join(dir, 'index.html')),
  ) ?? path.resolve(here, '../../../web/dist');

/**
 * Serves the built web app. Unknown paths outside /api get index.html so the client router
 * answers them (including its own 404 page); /api paths keep their JSON 404.
 */
export const webPlugin = fp(
  async (app: FastifyInstance) => {
    const root = app.config.webDist ? path.resolve(app.config.webDist) : defaultWebDist;
    const indexPath = path.join(root, 'index.html');
    const apiNotFound = (method: string, pathname: string) => ({
      error: { code: 'NOT_FOUND', message: `Adressen ${method} ${pathname} finns inte` },
    });
    if (!fs.existsSync(indexPath)) {
      app.log.warn({ root }, 'webbappen är inte byggd: kör npm run build');
      app.setNotFoundHandler((request, reply) => reply.status(404).send(apiNotFound(request.method, request.url.split('?')[0] ?? '')));
      return;
    }
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each script and style sheet (apps/web/vite.config.ts).
      preCompressed: true,
      setHeaders(reply, filePath) {
        // Hashed assets never change; the shell and the service worker must always be fresh.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          reply.header('Cache-Control', 'public, max-age=31536000, immutable');
          reply.header('Vary', 'Accept-Encoding');
        } else reply.header('Cache-Control', 'no-cache');
      },
    });
    // The shell carries the app's style sheet (apps/web/vite.config.ts), so it is compressed once here.
    const indexHtml = compressBody(fs.readFileSync(indexPath), 'once');
    app.setNotFoundHandler((request, reply) => {
      const pathname = request.url.split('?')[0] ?? '';
      if (pathname.startsWith('/api/') || pathname === '/api' || (request.method !== 'GET' && request.method !== 'HEAD')) {
        return reply.status(404).send(apiNotFound(request.method, pathname));
      }
      if (path.extname(pathname) && !pathname.endsWith('.html')) {
        return reply.status(404).type('text/plain; charset=utf-8').send('Filen finns inte');
      }
      return sendCompressed(request, reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache'), indexHtml);
    });
  },
  { name: 'web', dependencies: ['core', 'errors'] },
);
