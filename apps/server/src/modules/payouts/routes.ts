import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZAdminGroupParamsSchema,
  ZCreatePayoutRequestSchema,
  ZCreatePayoutResponseSchema,
  ZPayoutListQuerySchema,
  ZPayoutListResponseSchema,
  ZOutstandingPayoutsResponseSchema,
  ZPayoutParamsSchema,
  ZUpdatePayoutRequestSchema,
  ZUpdatePayoutResponseSchema,
} from '@saljportalen/contract';
import {
  ZGroupPayoutAccountQuerySchema,
  ZGroupPayoutAccountResponseSchema,
  ZPayoutAccountResponseSchema,
  ZSetPayoutAccountRequestSchema,
  ZSetPayoutAccountResponseSchema,
} from '@saljportalen/contract/payout-account';
import { currentUser } from '../../lib/current-user.js';
import { oreToSek, payoutAmountsOre } from '../../lib/money.js';
import { createPayout } from './create-payout.js';
import { payoutsCsv } from './export-payouts-csv.js';
import { listOutstandingPayouts } from './list-outstanding-payouts.js';
import { listPayouts } from './list-payouts.js';
import { loadPayoutDocument } from './load-payout-document.js';
import { markPayoutPaid } from './mark-payout-paid.js';
import { loadMaskedPayoutAccount, loadPayoutAccount, setPayoutAccount } from './payout-account.js';
import { renderPayoutPdf } from './render-payout-pdf.js';
import { sendFile } from '../audit/personal-data-exports.js';

/** Payouts (avräkningar), spec §2 and §7 (registered by adminRoutes, behind its superadmin guard). */
export async function payoutsRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/admin/payouts',
    { schema: { querystring: ZPayoutListQuerySchema, response: { 200: ZPayoutListResponseSchema } } },
    async (request) =>
      listPayouts(app.db, {
        status: request.query.status,
        groupId: request.query.group_id,
        from: request.query.from,
        to: request.query.to,
      }),
  );

  // The list as CSV, with the same filters.
  app.get(
    '/api/admin/payouts/export.csv',
    {
      schema: { querystring: ZPayoutListQuerySchema },
      config: {
        personalDataExport: {
          action: 'payout.export_csv',
          targetType: 'payout',
          targetId: () => null,
          details: (request) => ({ filters: request.query }),
        },
      },
    },
    async (request, reply) => {
      const payouts = await listPayouts(app.db, {
        status: request.query.status,
        groupId: request.query.group_id,
        from: request.query.from,
        to: request.query.to,
      });
      return sendFile(reply, { type: 'text/csv; charset=utf-8', fileName: 'avrakningar.csv', body: payoutsCsv(payouts) });
    },
  );

  // 'Att reglera': what no next payout is sure to settle, per group (issue 19).
  app.get('/api/admin/payouts/outstanding', { schema: { response: { 200: ZOutstandingPayoutsResponseSchema } } }, async () =>
    listOutstandingPayouts(app.db, { holdDays: app.config.payoutHoldDays }),
  );

  app.post(
    '/api/admin/payouts',
    { schema: { body: ZCreatePayoutRequestSchema, response: { 200: ZCreatePayoutResponseSchema } } },
    async (request) => {
      const result = await createPayout(app.db, {
        groupId: request.body.group_id,
        from: request.body.from,
        to: request.body.to,
        autoArchive: request.body.auto_archive,
        actorUserId: currentUser(request).id,
        holdDays: app.config.payoutHoldDays,
      });
      return result.created
        ? {
            ok: true as const,
            created: true,
            id: result.payoutId,
            amount: oreToSek(payoutAmountsOre(result.commissionOre).toPayOre),
            auto_archived: result.autoArchived,
            raw: { reason: null },
          }
        : { ok: true as const, created: false, id: null, amount: 0, auto_archived: false, raw: { reason: result.reason } };
    },
  );

  app.patch(
    '/api/admin/payouts/:id',
    { schema: { params: ZPayoutParamsSchema, body: ZUpdatePayoutRequestSchema, response: { 200: ZUpdatePayoutResponseSchema } } },
    async (request) => markPayoutPaid(app.db, { payoutId: request.params.id, actorUserId: currentUser(request).id }),
  );

  // Where the group's commission is paid (issue 30 point 6): read and set by the superadmin.
  app.get(
    '/api/admin/groups/:id/payout-account',
    { schema: { params: ZAdminGroupParamsSchema, response: { 200: ZPayoutAccountResponseSchema } } },
    async (request) => ({ payout_account: await loadPayoutAccount(app.db, request.params.id) }),
  );

  app.put(
    '/api/admin/groups/:id/payout-account',
    {
      schema: { params: ZAdminGroupParamsSchema, body: ZSetPayoutAccountRequestSchema, response: { 200: ZSetPayoutAccountResponseSchema } },
    },
    async (request) => ({
      ok: true as const,
      payout_account: await setPayoutAccount(app.db, {
        groupId: request.params.id,
        request: request.body,
        actorUserId: currentUser(request).id,
      }),
    }),
  );

  app.get(
    '/api/admin/payouts/:id/export.pdf',
    {
      schema: { params: ZPayoutParamsSchema },
      config: {
        personalDataExport: {
          action: 'payout.export_pdf',
          targetType: 'payout',
          targetId: (request) => (request.params as { id: number }).id,
        },
      },
    },
    async (request, reply) => {
      const pdf = await renderPayoutPdf(await loadPayoutDocument(app.db, request.params.id));
      return sendFile(reply, { type: 'application/pdf', fileName: `avrakning-${request.params.id}.pdf`, body: pdf });
    },
  );
}

/** The group's teacher sees where the class's money goes, masked (issue 30 point 6). */
export async function groupPayoutAccountRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/api/group/payout-account',
    { schema: { querystring: ZGroupPayoutAccountQuerySchema, response: { 200: ZGroupPayoutAccountResponseSchema } } },
    async (request) => loadMaskedPayoutAccount(app.db, { actorUserId: currentUser(request).id, groupId: request.query.group_id }),
  );
}
