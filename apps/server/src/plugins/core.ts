import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import type { Database, Db } from '../db/client.js';
import { createAccessTokens, type AccessTokens } from '../lib/access-token.js';
import { refreshSuccessor, type RefreshSuccessor } from '../lib/refresh-successor.js';
import { createMailer, type Mailer } from '../lib/mailer.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    database: Database;
    accessTokens: AccessTokens;
    /** Derives a refresh token's successor; keyed by the same secret as the access tokens. */
    refreshSuccessor: RefreshSuccessor;
    mailer: Mailer;
  }
}

export interface CoreOptions {
  config: Config;
  database: Database;
  jwtSecret: string;
  mailer?: Mailer;
}

/** What every route may use: configuration, the database, tokens and mail. */
export const corePlugin = fp(
  async (app: FastifyInstance, options: CoreOptions) => {
    app.decorate('config', options.config);
    app.decorate('database', options.database);
    app.decorate('db', options.database.db);
    app.decorate('accessTokens', createAccessTokens(options.jwtSecret));
    app.decorate('refreshSuccessor', refreshSuccessor(options.jwtSecret));
    app.decorate(
      'mailer',
      options.mailer ??
        createMailer({ smtpUrl: options.config.smtpUrl, from: options.config.mailFrom, dataDir: options.config.dataDir, log: app.log }),
    );
  },
  { name: 'core' },
);
