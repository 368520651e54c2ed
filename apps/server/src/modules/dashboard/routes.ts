import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZGroupGoalRequestSchema,
  ZGroupGoalResponseSchema,
  ZGroupSalesPerDayQuerySchema,
  ZGroupSettingsRequestSchema,
  ZGroupSettingsResponseSchema,
  ZGroupTotalsResponseSchema,
  ZLeaderboardResponseSchema,
  ZMeSummaryResponseSchema,
  ZPersonalGoalRequestSchema,
  ZPersonalGoalResponseSchema,
  ZSalesPerDayResponseSchema,
} from '@saljportalen/contract';
import { sendCompressed } from '../../lib/compressed-body.js';
import { currentUser } from '../../lib/current-user.js';
import { getGroupLeaderboard } from './get-group-leaderboard.js';
import { getGroupSalesPerDay } from './get-group-sales-per-day.js';
import { loadGroupTotals } from './get-group-totals.js';
import { loadSellerSummary } from './get-seller-summary.js';
import { setGroupGoal } from './set-group-goal.js';
import { setLeaderboardSettings } from './set-leaderboard-settings.js';
import { setPersonalGoal } from './set-personal-goal.js';
import { sellerView } from '../figures/seller-view.js';

/** The seller's dashboard: personal figures, the active group's totals and leaderboard (issue 3), its goal (issue 20). */
export async function dashboardRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  // The token's user and the active group's membership, group and figures, from the read model.
  app.addHook(
    'onRequest',
    app.authenticateWith((_db, userId) => app.readModel.sellerViewRow(userId)),
  );

  app.get('/api/me/summary', { schema: { response: { 200: ZMeSummaryResponseSchema } } }, async (request) =>
    loadSellerSummary(app.db, sellerView(request), { publicUrl: app.config.publicUrl, holdDays: app.config.payoutHoldDays }),
  );

  // Issue 20: the class's sales per day over its campaign, for any group the caller is a member of.
  app.get(
    '/api/group/sales-per-day',
    { schema: { querystring: ZGroupSalesPerDayQuerySchema, response: { 200: ZSalesPerDayResponseSchema } } },
    async (request) => getGroupSalesPerDay(app.db, { userId: currentUser(request).id, groupId: request.query.group_id }),
  );

  app.get('/api/group/totals', { schema: { response: { 200: ZGroupTotalsResponseSchema } } }, async (request) =>
    loadGroupTotals(app.db, app.readModel, sellerView(request), app.config.payoutHoldDays),
  );

  // The answer is made, checked against the contract and compressed once per change of the group
  // in the read model, and sent as it is: a 500-seller group's rows are not serialised again on
  // every dashboard (hence the untyped instance: the typed reply would only take the object).
  instance.get('/api/group/leaderboard-mine', { schema: { response: { 200: ZLeaderboardResponseSchema } } }, async (request, reply) =>
    sendCompressed(request, reply.type('application/json; charset=utf-8'), getGroupLeaderboard(app.readModel, sellerView(request))),
  );

  app.post(
    '/api/group/settings',
    { schema: { body: ZGroupSettingsRequestSchema, response: { 200: ZGroupSettingsResponseSchema } } },
    async (request) => {
      const { visible, mode } = await setLeaderboardSettings(app.db, {
        actorUserId: currentUser(request).id,
        groupId: request.body.group_id,
        visible: request.body.show_leaderboard,
        mode: request.body.leaderboard_mode,
      });
      return { ok: true as const, show_leaderboard: visible, leaderboard_mode: mode };
    },
  );

  app.post(
    '/api/group/goal',
    { schema: { body: ZGroupGoalRequestSchema, response: { 200: ZGroupGoalResponseSchema } } },
    async (request) => {
      const { group_id, amount, purpose, ends_on } = request.body;
      const goal = await setGroupGoal(app.db, {
        actorUserId: currentUser(request).id,
        groupId: group_id,
        // The contract has made sure purpose and end date are there whenever an amount is.
        goal: amount === null ? null : { amount, purpose: purpose!, endsOn: ends_on! },
      });
      return { ok: true as const, goal };
    },
  );

  app.post(
    '/api/me/personal-goal',
    { schema: { body: ZPersonalGoalRequestSchema, response: { 200: ZPersonalGoalResponseSchema } } },
    async (request) => {
      const view = sellerView(request);
      const { amount } = await setPersonalGoal(app.db, {
        userId: view.user.id,
        membershipId: view.membership?.id ?? null,
        amount: request.body.amount,
      });
      return { ok: true as const, amount };
    },
  );
}
