import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../lib/current-user.js';
import { createSellerCatalog } from './create-seller-catalog.js';
import { sendFile } from '../audit/personal-data-exports.js';

/** The seller's personal catalogue as a PDF (issue 3, spec §7 `GET /api/catalog/me.pdf`). */
export async function catalogRoutes(app: FastifyInstance) {
  app.addHook('onRequest', app.authenticate);
  // The paper carries the seller's name as chosen for buyers and the personal link: personal data.
  app.get(
    '/api/catalog/me.pdf',
    {
      config: { personalDataExport: { action: 'catalog.download', targetType: 'user', targetId: (request) => currentUser(request).id } },
    },
    async (request, reply) => {
      const { pdf, fileName } = await createSellerCatalog(app.db, {
        user: currentUser(request),
        publicUrl: app.config.publicUrl,
        dataDir: app.config.dataDir,
        log: request.log,
      });
      return sendFile(reply, { type: 'application/pdf', fileName, body: pdf });
    },
  );
}
