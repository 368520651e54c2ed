import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors.js';
import { writeAudit } from '../modules/audit/write-audit.js';

const isStream = (payload: unknown): payload is Readable =>
  typeof payload === 'object' && payload !== null && typeof (payload as Readable).destroy === 'function';

/** Neither the file nor its headers go out; a stream's pending queries are let go. */
function withhold(reply: FastifyReply, payload: unknown) {
  if (isStream(payload)) payload.destroy();
  reply.removeHeader('content-disposition');
  reply.removeHeader('content-type');
}

/**
 * Every file the server hands out (an answer with `Content-Disposition`) is audited, as the file
 * is about to be sent: who, which export, of what. A route that sends a file without declaring
 * `personalDataExport` sends nothing but a 500, so a new export cannot leave unaudited; and when
 * the entry cannot be written (the database away) the file is not sent either. HEAD answers carry
 * no file and write no entry.
 */
export const personalDataExportsPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onSend', async (request, reply, payload) => {
      if (reply.getHeader('content-disposition') === undefined || reply.statusCode >= 300) return payload;
      const declared = request.routeOptions.config.personalDataExport;
      if (!declared) {
        withhold(reply, payload);
        throw new AppError(
          'INTERNAL',
          `Filen skickas inte: vägen ${request.routeOptions.url ?? ''} anger inte vad som ska skrivas i händelseloggen.`,
        );
      }
      if (request.method === 'HEAD') return payload;
      try {
        await writeAudit(app.db, {
          actorUserId: request.authUser?.id ?? null,
          action: declared.action,
          targetType: declared.targetType,
          targetId: declared.targetId(request),
          details: declared.details?.(request),
        });
      } catch (error) {
        withhold(reply, payload);
        throw error;
      }
      return payload;
    });
  },
  { name: 'personal-data-exports' },
);
