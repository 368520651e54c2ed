import { classShopRef } from '@saljportalen/contract';
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { sql, TransactionRollbackError } from 'drizzle-orm';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDbKind, type TestServer } from '../../../test/test-server.js';
import { sqlRows } from '../../../test/admin-fixtures.js';
import { ledgerViolations } from '../../../test/ledger-invariants.js';
import { shopifyJson, swedishOrder, swedishRefund } from '../../../test/shopify-webhooks.js';
import type { Db, Tx } from '../../db/client.js';
import { groups, memberships, users } from '../../db/schema.js';
import { ZShopifyOrderSchema, ZShopifyRefundSchema } from '../../lib/shopify-payloads.js';
import { moveOrder } from '../class-orders/move-order.js';
import { exportGroupCsv } from '../groups/export-group-csv.js';
import { loadGroupDetail } from '../groups/load-group-detail.js';
import { recordShopifyOrder } from '../orders/record-shopify-order.js';
import { recordShopifyRefund } from '../orders/record-shopify-refund.js';
import { createPayout } from '../payouts/create-payout.js';
import { listPayouts } from '../payouts/list-payouts.js';
import { loadPayoutDocument } from '../payouts/load-payout-document.js';

// One definition of each figure (issue 30 point 3): random histories of orders (a pupil's or, issue 32, the class link's), late orders,
// cancellations, refunds, moved sales and payouts, each run through the real ledger on the real
// database, and every surface that shows a class's figures read after it: the rollups behind the
// admin pages and the dashboards, each pupil's row, the CSV, the payouts and their documents. Each
// must say what the order lines say. A history runs in a transaction that is rolled back, so a
// thousand of them leave nothing behind.

// A thousand on PostgreSQL, a tenth of them on PGlite (decisions 076 and 077, as the fuzz test's):
// the histories exercise the ledger's rules, the same code on both; what the two databases do
// differently, the first histories' statements meet. A history costs PGlite about 0.2 CPU-s.
const HISTORIES = Number(process.env.FIGURE_HISTORIES ?? (testDbKind === 'postgres' ? 1_000 : 100));
// The same histories on every run, so that a run fails for the code and not for the draw (a random
// seed once drew 10 histories with a deduction where more than 10 were asked for); FIGURE_SEED=<n>
// draws others, and fast-check prints the seed and the path of any history that fails.
const SEED = process.env.FIGURE_SEED === undefined ? 20_261_129 : Number(process.env.FIGURE_SEED);
const FIRST_DAY = Date.UTC(2025, 2, 3, 9); // a Monday morning, Stockholm winter time 10:00
const day = (index: number, minutes = 0) => new Date(FIRST_DAY + index * 86_400_000 + minutes * 60_000).toISOString();
const date = (index: number) => day(index).slice(0, 10);

const order = fc.record({
  type: fc.constant('order' as const),
  // 0 and 1 are the pupils' links; 2 is the class link (issue 32): the class's order, no pupil's.
  seller: fc.integer({ min: 0, max: 2 }),
  day: fc.integer({ min: 0, max: 20 }),
  lines: fc.array(
    fc.record({ kronor: fc.integer({ min: 1, max: 600 }), ore: fc.constantFrom(0, 50, 95), quantity: fc.integer({ min: 1, max: 3 }) }),
    {
      minLength: 1,
      maxLength: 3,
    },
  ),
});
const event = fc.oneof(
  { weight: 4, arbitrary: order },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('cancel' as const), order: fc.nat(), later: fc.integer({ min: 0, max: 5 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('refund' as const),
      order: fc.nat(),
      line: fc.nat(),
      quantity: fc.integer({ min: 1, max: 3 }),
      later: fc.integer({ min: 0, max: 5 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('payout' as const),
      from: fc.integer({ min: 0, max: 25 }),
      length: fc.integer({ min: 0, max: 10 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('move' as const), order: fc.nat(), to: fc.integer({ min: 0, max: 1 }) }) },
);
type Event = typeof event extends fc.Arbitrary<infer T> ? T : never;

let server: TestServer;
let superadminId: number;
let nextId = 9_600_000_000_000;
const quiet = pino({ level: 'silent' });
beforeAll(async () => {
  server = await startTestServer();
  const [admin] = await server.app.db
    .insert(users)
    .values({
      email: `prov-${crypto.randomUUID()}@test.se`,
      passwordHash: 'ingen-inloggning',
      fullName: 'Prov Superadmin',
      isSuperadmin: true,
    })
    .returning({ id: users.id });
  superadminId = admin!.id;
});
afterAll(() => server.close());

interface PlacedOrder {
  shopifyId: number;
  dayIndex: number;
  lineIds: number[];
  payload: Record<string, unknown>;
}

/** Runs a history on a class of its own, then returns what every surface says, in öre. */
async function runHistory(tx: Tx, events: Event[]) {
  const db = tx as unknown as Db;
  const [group] = await tx
    .insert(groups)
    .values({ name: 'Provklassen', code: crypto.randomBytes(5).toString('hex').toUpperCase() })
    .returning({ id: groups.id, classLinkCode: groups.classLinkCode });
  const groupId = group!.id;
  const pupils = [];
  for (const name of ['Alva Prov', 'Elias Prov']) {
    const [user] = await tx
      .insert(users)
      .values({ email: `${crypto.randomUUID()}@test.se`, passwordHash: 'ingen-inloggning', fullName: name })
      .returning({ id: users.id });
    const linkCode = crypto.randomBytes(6).toString('hex').toUpperCase();
    const [membership] = await tx.insert(memberships).values({ userId: user!.id, groupId, linkCode }).returning({ id: memberships.id });
    pupils.push({ membershipId: membership!.id, linkCode });
  }

  const placed: PlacedOrder[] = [];
  const deliver = (payload: Record<string, unknown>) =>
    recordShopifyOrder(tx, {
      order: ZShopifyOrderSchema.parse(JSON.parse(shopifyJson(payload))),
      sourceEventId: 0,
      defaultCommissionBps: 2500,
    });
  for (const step of events) {
    if (step.type === 'order') {
      const shopifyId = nextId++;
      const lineIds = step.lines.map(() => nextId++);
      const payload = swedishOrder({
        id: shopifyId,
        name: `#P${shopifyId % 1_000_000}`,
        refCode: pupils[step.seller]?.linkCode ?? classShopRef(group!.classLinkCode),
        createdAt: day(step.day, placed.length),
        lineItems: step.lines.map((line, index) => ({
          id: lineIds[index]!,
          productId: null,
          title: 'Bivaxdukar',
          price: `${line.kronor}.${String(line.ore).padStart(2, '0')}`,
          quantity: line.quantity,
        })),
      });
      await deliver(payload);
      placed.push({ shopifyId, dayIndex: step.day, lineIds, payload });
    } else if (step.type === 'cancel' && placed.length > 0) {
      const order = placed[step.order % placed.length]!;
      const at = day(order.dayIndex + step.later, 600);
      await deliver({ ...order.payload, cancelled_at: at, cancel_reason: 'customer', updated_at: at, financial_status: 'voided' });
    } else if (step.type === 'refund' && placed.length > 0) {
      const order = placed[step.order % placed.length]!;
      const refund = swedishRefund({
        id: nextId++,
        orderId: order.shopifyId,
        processedAt: day(order.dayIndex + step.later, 700),
        lines: [{ id: nextId++, lineItemId: order.lineIds[step.line % order.lineIds.length]!, quantity: step.quantity }],
      });
      await recordShopifyRefund(tx, { refund: ZShopifyRefundSchema.parse(JSON.parse(shopifyJson(refund))) });
    } else if (step.type === 'payout') {
      await createPayout(tx, { groupId, from: date(step.from), to: date(step.from + step.length), autoArchive: false, actorUserId: null });
    } else if (step.type === 'move' && placed.length > 0) {
      const order = placed[step.order % placed.length]!;
      const [stored] = await sqlRows<{ id: number }>(db, sql`select id from orders where shopify_order_id = ${String(order.shopifyId)}`);
      await moveOrder(db, {
        orderId: stored!.id,
        toMembershipId: pupils[step.to]!.membershipId,
        reason: 'Provkörning',
        actorUserId: superadminId,
      });
    }
  }
  return surfaces(db, groupId);
}

const ore = (kronor: number) => Math.round(kronor * 100);
const csvOre = (text: string) => Math.round(Number(text.replace(',', '.')) * 100);

async function surfaces(db: Db, groupId: number) {
  // What the order lines and orders say, straight from the tables.
  const [lines] = await sqlRows<{
    sales: number;
    commission: number;
    unsettled: number;
    orders: number;
    transfers: number;
    classSales: number;
    classCommission: number;
    classOrders: number;
  }>(
    db,
    sql`select coalesce(sum(amount_ore), 0)::float8 as sales, coalesce(sum(commission_ore), 0)::float8 as commission,
          coalesce(sum(amount_ore) filter (where membership_id is null), 0)::float8 as "classSales",
          coalesce(sum(commission_ore) filter (where membership_id is null), 0)::float8 as "classCommission",
          (select count(*) from orders where group_id = ${groupId} and membership_id is null and state <> 'cancelled')::float8 as "classOrders",
          coalesce(sum(commission_ore) filter (where payout_id is null), 0)::float8 as unsettled,
          count(*) filter (where kind = 'transfer')::float8 as transfers,
          (select count(*) from orders where group_id = ${groupId} and state <> 'cancelled')::float8 as orders
        from order_lines where group_id = ${groupId}`,
  );
  // The admin's group page (the rollups, which the dashboards' read model is loaded from) and its pupils' rows.
  const detail = await loadGroupDetail(db, groupId);
  // The CSV export, line by line.
  const { stream } = await exportGroupCsv(db, { groupId, log: quiet });
  const text = Buffer.concat(await Readable.from(stream).toArray()).toString('utf8');
  const records = parse(text, { delimiter: ';', columns: true, bom: true }) as Record<string, string>[];
  // Every payout, its document, and what no payout has taken yet.
  const payouts = await listPayouts(db, { status: 'all', groupId });
  const documents = await Promise.all(payouts.map((payout) => loadPayoutDocument(db, payout.id)));
  return {
    lines: lines!,
    detail,
    csv: {
      sales: records.reduce((sum, record) => sum + csvOre(record['Belopp inkl. moms (kr)'] || '0'), 0),
      commission: records.reduce((sum, record) => sum + csvOre(record['Provision (kr)'] || '0'), 0),
    },
    payouts,
    documents,
    violations: await ledgerViolations(db),
  };
}

describe('every surface shows the same figures', () => {
  it(`after ${HISTORIES} random histories of orders, cancellations, refunds, moved sales and payouts`, { timeout: 600_000 }, async () => {
    // What the histories held: the property must not hold merely because there was nothing to check.
    const held = { withOrders: 0, withPayouts: 0, withDeductionsOrCorrections: 0, withTransfers: 0, withClassOrders: 0 };
    await fc.assert(
      // A few orders first, then anything: payouts, and what comes after them, have something to take.
      fc.asyncProperty(
        fc.tuple(fc.array(order, { minLength: 1, maxLength: 4 }), fc.array(event, { maxLength: 12, size: 'medium' })),
        async ([orders, rest]) => {
          const events: Event[] = [...orders, ...rest];
          let seen: Awaited<ReturnType<typeof runHistory>> | undefined;
          // Rolled back whatever happens: a history leaves nothing for the next one.
          await server.app.db
            .transaction(async (tx) => {
              seen = await runHistory(tx, events);
              tx.rollback();
            })
            .catch((error: unknown) => {
              if (!(error instanceof TransactionRollbackError)) throw error;
            });
          const { lines, detail, csv, payouts, documents, violations } = seen!;
          if (lines.orders > 0) held.withOrders++;
          if (payouts.length > 0) held.withPayouts++;
          if (lines.classOrders > 0) held.withClassOrders++;
          if (documents.some((document) => document.lines.some((line) => line.correctionOf !== null || line.deductionOf !== null)))
            held.withDeductionsOrCorrections++;
          if (documents.some((document) => document.lines.some((line) => line.kind === 'transfer')) || lines.transfers > 0)
            held.withTransfers++;
          expect(violations).toEqual([]);
          // The class's totals: rollups, the pupils' rows added up, the CSV, the order lines.
          expect({
            sales: ore(detail.totals.total_sales),
            commission: ore(detail.totals.total_commission),
            orders: detail.totals.orders_count,
          }).toEqual({
            sales: lines.sales,
            commission: lines.commission,
            orders: lines.orders,
          });
          // The pupils' rows and what came through the class link, which is no pupil's.
          expect({
            sales: detail.sellers.reduce((sum, seller) => sum + ore(seller.total_sales), lines.classSales),
            commission: detail.sellers.reduce((sum, seller) => sum + ore(seller.total_commission), lines.classCommission),
            orders: detail.sellers.reduce((sum, seller) => sum + seller.orders_count, lines.classOrders),
          }).toEqual({ sales: lines.sales, commission: lines.commission, orders: lines.orders });
          expect(csv).toEqual({ sales: lines.sales, commission: lines.commission });
          // What the payouts took and what waits add up to the commission, and each document to its payout.
          expect(payouts.reduce((sum, payout) => sum + ore(payout.total_commission), 0) + lines.unsettled).toBe(lines.commission);
          for (const [index, payout] of payouts.entries()) {
            const document = documents[index]!;
            expect(document.commissionOre).toBe(ore(payout.total_commission));
            expect(document.ordersCount).toBe(payout.orders_count);
            expect(document.sellers.reduce((sum, seller) => sum + seller.commissionOre, 0)).toBe(document.commissionOre);
            expect(document.lines.reduce((sum, line) => sum + line.amountOre, 0)).toBe(ore(payout.total_sales));
          }
        },
      ),
      { numRuns: HISTORIES, seed: SEED },
    );
    console.info(`[figures-agree] ${HISTORIES} historier (FIGURE_SEED=${SEED}): ${JSON.stringify(held)}`);
    // Bounds well under what the histories hold (printed above), so that another FIGURE_SEED meets them too.
    expect(held.withOrders).toBeGreaterThan(HISTORIES * 0.9);
    expect(held.withPayouts).toBeGreaterThan(HISTORIES / 5);
    expect(held.withDeductionsOrCorrections).toBeGreaterThan(HISTORIES / 50);
    expect(held.withTransfers).toBeGreaterThan(HISTORIES / 250);
    expect(held.withClassOrders).toBeGreaterThan(HISTORIES / 4);
  });
});
