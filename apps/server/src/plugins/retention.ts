import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { retentionJob } from '../modules/privacy/retention.js';

/** The daily retention run (issue 28): the scheduler runs it, and it forgets the mail outbox's files too. */
export const retentionPlugin = fp(
  async (app: FastifyInstance) => {
    app.scheduledJobs.add(retentionJob(app.mailOutbox));
  },
  { name: 'retention', dependencies: ['scheduled-jobs', 'mail-outbox'] },
);
