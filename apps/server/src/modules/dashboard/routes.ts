import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZGroupSalesPerDayQuerySchema,
  ZGroupSettingsRequestSchema,
  ZGroupSettingsResponseSchema,
  ZGroupTotalsResponseSchema,
  ZLeaderboardResponseSchema,
  ZMeSummaryResponseSchema,
  ZSalesPerDayResponseSchema,
} from '@saljportalen/contract';
import { sendCompressed } from '../../lib/compressed-body.js';
import { currentUser } from '../../plugins/auth.js';
import { getGroupLeaderboard, type LeaderboardVersion } from './get-group-leaderboard.js';
import { createLeaderboardCache } from './leaderboard-cache.js';
import { getGroupSalesPerDay } from './get-group-sales-per-day.js';
import { getGroupTotals } from './get-group-totals.js';
import { getSellerSummary } from './get-seller-summary.js';
import { setLeaderboardVisibility } from './set-leaderboard-visibility.js';
import { loadSellerView, sellerView } from '../figures/seller-view.js';

/** The seller's dashboard: personal figures, the active group's totals and leaderboard (issue 3). */
export async function dashboardRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  // The token's user and the active group's membership, group and figures in one query.
  app.addHook('onRequest', app.authenticateWith(loadSellerView));

  app.get('/api/me/summary', { schema: { response: { 200: ZMeSummaryResponseSchema } } }, async (request) =>
    getSellerSummary(sellerView(request), { publicUrl: app.config.publicUrl }),
  );

  app.get('/api/group/totals', { schema: { response: { 200: ZGroupTotalsResponseSchema } } }, async (request) =>
    getGroupTotals(sellerView(request)),
  );

  // Issue 20: the class's sales per day over its campaign, for any group the caller is a member of.
  app.get(
    '/api/group/sales-per-day',
    { schema: { querystring: ZGroupSalesPerDayQuerySchema, response: { 200: ZSalesPerDayResponseSchema } } },
    async (request) => getGroupSalesPerDay(app.db, { userId: currentUser(request).id, groupId: request.query.group_id }),
  );

  const leaderboards = createLeaderboardCache<LeaderboardVersion>();
  // The answer is made, checked against the contract and compressed once per version of the
  // group's figures, and sent as it is: a 500-seller group's rows are not serialised again on
  // every dashboard (hence the untyped instance: the typed reply would only take the object).
  instance.get('/api/group/leaderboard-mine', { schema: { response: { 200: ZLeaderboardResponseSchema } } }, async (request, reply) =>
    sendCompressed(
      request,
      reply.type('application/json; charset=utf-8'),
      await getGroupLeaderboard(app.db, { view: sellerView(request), cache: leaderboards }),
    ),
  );

  app.post(
    '/api/group/settings',
    { schema: { body: ZGroupSettingsRequestSchema, response: { 200: ZGroupSettingsResponseSchema } } },
    async (request) => {
      const { visible } = await setLeaderboardVisibility(app.db, {
        actorUserId: currentUser(request).id,
        groupId: request.body.group_id,
        visible: request.body.show_leaderboard,
      });
      return { ok: true as const, show_leaderboard: visible };
    },
  );
}
