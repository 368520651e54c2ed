import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable, isUnstorableText } from '../db/client.js';
import { AppError, databaseUnavailable, type ErrorCode } from '../errors.js';
import { OutageLog } from '../lib/outage-log.js';

/** Seconds a client is asked to wait before trying again while the database is away. */
const RETRY_AFTER_SECONDS = '5';

/** Fastify's own error codes for a bad request body, mapped to ours with a Swedish message. */
const fastifyClientErrors: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'INVALID_JSON', message: 'Ogiltig JSON i begäran' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'INVALID_JSON', message: 'Begäran saknar innehåll' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', message: 'Begäran är för stor' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Innehållstypen stöds inte' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'BAD_REQUEST', message: 'Ogiltig innehållslängd' },
  FST_ERR_CTP_INVALID_TYPE: { code: 'BAD_REQUEST', message: 'Ogiltig innehållstyp' },
};

/**
 * One handler for every error: AppError by its code, validation by its first message, text
 * PostgreSQL cannot store as a 400, Fastify's body errors by the table above, a database that is
 * away or too slow as a 503 (decision 021); anything else is logged in full and answered as a 500
 * without internals.
 */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    const outage = new OutageLog(app.log);
    app.addHook('onClose', async () => outage.flush());
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof AppError) {
        // Refusals an operator must see, said in one line without a stack (and never with the body);
        // those of an outage a few lines for all of them.
        if (error.code === 'UNAVAILABLE') {
          outage.refused({ code: error.code, method: request.method, url: request.url.split('?')[0], reqId: request.id }, error.message);
        } else if (error.code === 'INVALID_SIGNATURE' || error.code === 'NOT_CONFIGURED') {
          request.log.warn({ code: error.code, method: request.method, url: request.url.split('?')[0] }, error.message);
        } else if (error.statusCode >= 500) request.log.error({ err: error }, error.message);
        const { code, message, details } = error;
        return reply.status(error.statusCode).send({ error: { code, message, ...(details ? { details } : {}) } });
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const first = error.validation[0];
        const message = first?.message ?? 'Ogiltig begäran';
        return reply.status(400).send({
          error: {
            code: 'VALIDATION',
            message,
            details: error.validation.map((issue) => ({
              field: issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || undefined,
              message: issue.message,
            })),
          },
        });
      }
      if (isResponseSerializationError(error)) {
        request.log.error({ err: error, cause: error.cause }, 'svaret följde inte kontraktet');
        return reply.status(500).send({ error: { code: 'INTERNAL', message: 'Ett internt fel uppstod' } });
      }
      // The request-wide NUL check (plugins/security.ts) keeps these out; should text PostgreSQL
      // cannot store still reach a query, it is the request's fault, not the server's.
      if (isUnstorableText(error)) {
        request.log.info('text som databasen inte kan lagra');
        return reply.status(400).send({ error: { code: 'BAD_REQUEST', message: 'Texten innehåller ett otillåtet tecken' } });
      }
      // Never a 500 for a neighbour's failure: the request may be repeated (a webhook is, by Shopify).
      if (isDatabaseUnavailable(error)) {
        outage.refused(
          { err: error, method: request.method, url: request.url.split('?')[0], reqId: request.id },
          'databasen svarar inte: 503',
        );
        const unavailable = databaseUnavailable();
        return reply
          .status(unavailable.statusCode)
          .header('retry-after', RETRY_AFTER_SECONDS)
          .send({ error: { code: unavailable.code, message: unavailable.message } });
      }
      const known = error.code ? fastifyClientErrors[error.code] : undefined;
      if (known) return reply.status(error.statusCode ?? 400).send({ error: known });
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        request.log.info({ code: error.code }, error.message);
        return reply.status(error.statusCode).send({ error: { code: 'BAD_REQUEST', message: 'Ogiltig begäran' } });
      }
      request.log.error({ err: error }, 'oväntat fel');
      return reply.status(500).send({ error: { code: 'INTERNAL', message: 'Ett internt fel uppstod' } });
    });
  },
  { name: 'errors' },
);
