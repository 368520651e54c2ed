import Fastify, { type FastifyBaseLogger, type FastifyReply, type FastifyServerOptions, type RouteOptions } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { trackConnections } from './lib/close-gracefully.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { logRedaction, RequestLogController } from './lib/log-redaction.js';
import { responseSerializerCompiler } from './lib/response-serializer.js';
import type { Mailer } from './lib/mailer.js';
import { authPlugin } from './plugins/auth.js';
import { corePlugin } from './plugins/core.js';
import { errorsPlugin } from './plugins/errors.js';
import { inFlightPlugin } from './plugins/in-flight.js';
import { metricsPlugin } from './plugins/metrics.js';
import { mailOutboxPlugin } from './plugins/mail-outbox.js';
import { scheduledJobsPlugin } from './plugins/scheduled-jobs.js';
import { changeFeedPlugin } from './plugins/change-feed.js';
import { readModelPlugin } from './plugins/read-model.js';
import { ReadModel } from './modules/figures/read-model/read-model.js';
import { securityPlugin } from './plugins/security.js';
import { webPlugin } from './plugins/web.js';
import { accountRoutes } from './modules/account/routes.js';
import { privacyRoutes } from './modules/privacy/routes.js';
import { authRoutes } from './modules/auth/routes.js';
import { healthRoutes } from './modules/health/routes.js';
import { dashboardRoutes } from './modules/dashboard/routes.js';
import { catalogRoutes } from './modules/catalog/routes.js';
import { adminRoutes } from './modules/admin/routes.js';
import { shopifyRoutes } from './modules/shopify/routes.js';
import { linkRoutes } from './modules/links/routes.js';
import { notificationJobs } from './plugins/notification-jobs.js';
import { liveRoutes } from './modules/live/routes.js';
import { privacyInfoRoutes } from './modules/privacy/routes.js';
import { retentionPlugin } from './plugins/retention.js';
import { storedPayloadsPlugin } from './plugins/stored-payloads.js';
import { personalDataExportsPlugin } from './plugins/personal-data-exports.js';
import { guardianRoutes } from './modules/guardian/routes.js';
import { groupMemberRoutes } from './modules/group-members/routes.js';
import { groupPayoutAccountRoutes } from './modules/payouts/routes.js';
import { classOrderRoutes } from './modules/class-orders/routes.js';
import { campaignRoutes } from './modules/campaigns/routes.js';
import { classLinkRoutes } from './modules/class-link/routes.js';

export interface BuildAppOptions {
  config: Config;
  database: Database;
  jwtSecret: string;
  mailer?: Mailer;
  logger?: FastifyServerOptions['logger'];
  /** Told of every route as it is added, with its full path (the tests' table of every route). */
  onRoute?: (route: RouteOptions) => void;
  /** The process's own logger (main.ts logs its start with it before the app exists). */
  loggerInstance?: FastifyBaseLogger;
}

/** Builds the Fastify instance: plugins first, then one route module per domain. */
export async function buildApp(options: BuildAppOptions) {
  const { connections } = options.config;
  const app = Fastify({
    ...(options.loggerInstance
      ? { loggerInstance: options.loggerInstance }
      : { logger: options.logger ?? { level: options.config.logLevel, ...logRedaction } }),
    logController: new RequestLogController(),
    // Shutdown (close-gracefully.ts) answers what arrives on open connections instead of Fastify's
    // English 503, and closes idle connections itself once they have stayed idle.
    return503OnClosing: false,
    forceCloseConnections: false,
    bodyLimit: 1024 * 1024,
    // Slow clients cannot hold the server (issue 28, config.ts): a request must arrive in time,
    // headers first; an idle connection is closed; how many it holds at once is bounded below.
    // None of them limits an answer, so a live-figure stream (modules/live) lasts as it should.
    requestTimeout: connections.requestTimeoutMs,
    connectionTimeout: connections.connectionTimeoutMs,
    keepAliveTimeout: connections.keepAliveTimeoutMs,
    maxRequestsPerSocket: connections.maxRequestsPerSocket,
    http: {
      headersTimeout: connections.headersTimeoutMs,
      requestTimeout: connections.requestTimeoutMs,
      // Node looks for connections past those limits this often (30 s by default, which let a
      // stalled connection live half a minute past its limit).
      connectionsCheckingInterval: Math.min(connections.headersTimeoutMs, 5_000),
    },
    trustProxy: options.config.trustProxy,
    // Our own ids and Shopify's are numeric; nothing else needs query arrays or objects.
    routerOptions: { maxParamLength: 200 },
    // A path the router refuses (bad percent-encoding, a parameter over maxParamLength) gets the
    // API's own error shape and a Swedish message, like every other refusal.
    frameworkErrors: (error, _request, reply: FastifyReply) =>
      reply.status(error.statusCode ?? 400).send({ error: { code: 'BAD_REQUEST', message: 'Ogiltig adress' } }),
  });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  // Past it Node closes a new connection at once: idle and stalled clients cannot exhaust memory and
  // file descriptors, while the time limits above make each of them let go soon.
  app.server.maxConnections = connections.maxConnections;
  trackConnections(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler({ checkWithZod: options.config.checkResponses }));

  await app.register(inFlightPlugin);
  await app.register(corePlugin, {
    config: options.config,
    database: options.database,
    jwtSecret: options.jwtSecret,
    mailer: options.mailer,
  });
  await app.register(errorsPlugin);
  await app.register(metricsPlugin);
  await app.register(mailOutboxPlugin);
  await app.register(scheduledJobsPlugin);
  // Before anything can be served: a buyer's data kept from before the upgrade goes first (decision 054).
  await app.register(storedPayloadsPlugin);
  await app.register(changeFeedPlugin);
  await app.register(readModelPlugin, { create: (parts) => new ReadModel(parts) });
  await app.register(securityPlugin);
  await app.register(authPlugin);
  await app.register(personalDataExportsPlugin);

  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(accountRoutes);
  await app.register(privacyRoutes);
  await app.register(dashboardRoutes);
  await app.register(groupMemberRoutes);
  await app.register(groupPayoutAccountRoutes);
  await app.register(classOrderRoutes);
  await app.register(campaignRoutes);
  await app.register(classLinkRoutes);
  await app.register(catalogRoutes);
  await app.register(guardianRoutes);
  await app.register(adminRoutes);
  await app.register(shopifyRoutes);
  await app.register(linkRoutes);
  await app.register(notificationJobs);
  await app.register(liveRoutes);
  await app.register(privacyInfoRoutes);
  await app.register(retentionPlugin);

  await app.register(webPlugin);
  return app;
}
