import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** Anything shaped like an e-mail address, wherever it sits in a text (SMTP refusals, query errors). */
const EMAIL_ADDRESS = /[^\s<>"'@,;:()[\]]+@[^\s<>"'@,;:()[\]]+/g;

/** Query parameters that carry a secret or a person: the reset link's `code`, tokens, the live stream's `ticket`, addresses. */
const SECRET_PARAMETERS = new Set(['code', 'token', 'password', 'email', 'ticket']);

export const withoutAddresses = (text: string): string => text.replace(EMAIL_ADDRESS, '[adress]');

/** The path with every secret query value blanked: `/auth/reset-password?code=[dold]`. */
export function withoutSecrets(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const parameters = new URLSearchParams(url.slice(query + 1));
  for (const name of new Set(parameters.keys())) if (SECRET_PARAMETERS.has(name.toLowerCase())) parameters.set(name, '[dold]');
  return `${url.slice(0, query)}?${parameters.toString()}`;
}

/** Strings in plain objects and arrays, a few levels down; anything else (errors, requests) is left to its serializer. */
function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return withoutAddresses(value);
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrub(item, depth + 1)]));
}

/**
 * Pino options that keep people's data out of the log (docs/security.md, what is never logged):
 * no e-mail address in any message or field, no secret in a logged URL (the reset link is a web
 * route, so its code would otherwise be logged with every visit), and errors reduced to what a
 * developer needs. Request headers (the bearer token, the refresh cookie) and bodies (passwords)
 * are not logged at all.
 */
export const logRedaction = {
  serializers: {
    req: (request: FastifyRequest) => ({ method: request.method, url: withoutSecrets(request.url), remoteAddress: request.ip }),
    err: (error: Error & { code?: unknown; statusCode?: unknown; cause?: unknown }) => ({
      type: error.name,
      message: withoutAddresses(error.message ?? String(error)),
      stack: withoutAddresses(error.stack ?? ''),
      ...(typeof error.code === 'string' ? { code: error.code } : {}),
      ...(typeof error.statusCode === 'number' ? { statusCode: error.statusCode } : {}),
      ...(error.cause instanceof Error ? { cause: withoutAddresses(`${error.cause.name}: ${error.cause.message}`) } : {}),
    }),
  },
  formatters: { log: (object: Record<string, unknown>) => scrub(object) as Record<string, unknown> },
  hooks: {
    logMethod(this: unknown, args: unknown[], method: (...args: unknown[]) => void) {
      method.apply(
        this,
        args.map((arg) => (typeof arg === 'string' ? withoutAddresses(arg) : arg)),
      );
    },
  },
};

/**
 * Each request's closing log line says what it was and how it ended: method, path (without the
 * query, which can carry a reset code) and status, beside the time taken.
 */
export class RequestLogController extends LogController {
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = {
      method: request.method,
      url: request.url.split('?')[0],
      statusCode: reply.statusCode,
      responseTime: reply.elapsedTime,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
