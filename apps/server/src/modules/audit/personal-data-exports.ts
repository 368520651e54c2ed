import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { attachmentHeader } from '../../lib/attachment-header.js';

/**
 * What a route that hands out personal data as a file records in the audit log when it does
 * (issue 28): declared in the route's `config.personalDataExport`, so the table of routes says
 * which routes are exports (test/personal-data-exports.api.test.ts lists them).
 */
export interface PersonalDataExport {
  /** Dotted verb, as writeAudit's: `payout.export_pdf`. */
  action: string;
  targetType: string;
  /** The record the file is of, or null for a list (its filters go in `details`). */
  targetId: (request: FastifyRequest) => string | number | null;
  details?: (request: FastifyRequest) => Record<string, unknown>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    personalDataExport?: PersonalDataExport;
  }
}

/**
 * Sends a download: its type, and the name the browser saves it under, as written (lib/attachment-header.ts).
 * The one way a route sends a file, so that the audit hook (plugins/personal-data-exports.ts) knows one by its content-disposition.
 */
export const sendFile = (reply: FastifyReply, file: { type: string; fileName: string; body: Buffer | string | Readable }) =>
  reply.type(file.type).header('content-disposition', attachmentHeader(file.fileName)).send(file.body);
