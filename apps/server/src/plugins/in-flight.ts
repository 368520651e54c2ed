import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** Resolves once every request taken in has been handled, or after `timeoutMs`. */
    requestsSettled(timeoutMs: number): Promise<void>;
  }
  interface FastifyRequest {
    /** Called once the request's answer is given (see inFlightPlugin). */
    inFlightAnswered: (() => void) | null;
  }
}

/**
 * Counts the requests the server is still working on, so that shutdown closes the database only
 * after the last of them. `app.close()` waits for open connections, not for handlers: a caller who
 * hung up (a Shopify delivery that timed out, a phone that went offline) leaves a handler running
 * with no connection, and it would meet a closed database halfway through. A request is settled
 * when its handler has given its answer (onSend, which errors pass too) and its response is closed
 * (sent, streamed to the end, or cut off).
 */
export const inFlightPlugin = fp(
  async (app: FastifyInstance) => {
    let unsettled = 0;
    let waiters: (() => void)[] = [];
    const settleOne = () => {
      unsettled--;
      if (unsettled > 0) return;
      for (const wake of waiters) wake();
      waiters = [];
    };

    // Declared, so that every request object has the same shape from its constructor on.
    app.decorateRequest('inFlightAnswered', null);
    app.addHook('onRequest', (request, reply, done) => {
      unsettled++;
      let answered = false;
      let closed = false;
      const settleWhenBoth = () => {
        if (answered && closed) settleOne();
      };
      request.inFlightAnswered = () => {
        if (answered) return;
        answered = true;
        settleWhenBoth();
      };
      reply.raw.once('close', () => {
        closed = true;
        settleWhenBoth();
      });
      done();
    });
    app.addHook('onSend', (request, _reply, payload, done) => {
      request.inFlightAnswered?.();
      done(null, payload);
    });

    app.decorate('requestsSettled', (timeoutMs: number) => {
      if (unsettled === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    });
  },
  { name: 'in-flight' },
);
