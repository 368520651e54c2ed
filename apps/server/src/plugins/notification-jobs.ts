import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { saleMailJob } from '../modules/notifications/sale-mail.js';
import { weeklySummaryJob } from '../modules/notifications/weekly-summary.js';

/**
 * The notification mails the scheduler sends (issue 20, decision 042): the hourly sale mail
 * ('Mejla mig när jag säljer') and the group admins' weekly summary. Both are opt-in; the opt-ins
 * are set with POST /api/account/notifications.
 */
export const notificationJobs = fp(
  async (app: FastifyInstance) => {
    const options = { publicUrl: app.config.publicUrl, deliverSoon: () => app.mailOutbox.deliverSoon() };
    app.scheduledJobs.add(saleMailJob(options));
    app.scheduledJobs.add(weeklySummaryJob(options));
  },
  { name: 'notification-jobs', dependencies: ['scheduled-jobs'] },
);
