import crypto from 'node:crypto';
import { and, eq, inArray, isNotNull, notInArray, or, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.js';
import { groups, memberships, orders, payouts, products, refreshTokens, users } from '../../db/schema.js';
import { DEMO_GROUPS, DEMO_ORDER_IDS_FROM, DEMO_PRODUCTS_BY_SKU, findDemoAccounts } from './seed.js';
import { hashPassword } from '../../lib/passwords.js';
import { writeAudit } from '../audit/write-audit.js';

/** What `npm run remove-demo-data` did, for its report. */
export interface DemoRemoval {
  /** Demo accounts deleted, by address. */
  removedAccounts: string[];
  /** Demo accounts kept because something real points at them, with a new password nobody knows. */
  lockedAccounts: string[];
  removedGroups: string[];
  /** Demo groups kept because they hold something real: a member, an order or a payout of their own. */
  keptGroups: string[];
  orders: number;
  payouts: number;
  products: number;
}

/** The seed's orders: Shopify ids from DEMO_ORDER_IDS_FROM, and no webhook delivery behind them. */
const seedOrder = sql`(${orders.sourceEventId} is null and ${orders.shopifyOrderId} >= ${DEMO_ORDER_IDS_FROM} and ${orders.shopifyOrderId} < ${DEMO_ORDER_IDS_FROM + 1_000_000})`;

/**
 * Removes the demo data the seed made (issue 28), in one transaction, on either database: the
 * demo accounts (findDemoAccounts: the seed's addresses with the seed's password), the demo
 * groups with their memberships, orders and payouts, and the demo products.
 *
 * Nothing real goes with it. A demo group is removed only when everything in it is the demo's:
 * its members are demo accounts, its orders the seed's (no webhook behind them), its payouts made
 * by the seed or a demo account. A demo group someone went on using for real stays whole, seed
 * orders included, for its payouts' sake. A demo account that such a group, or a kept payout,
 * still points at is not deleted: it gets a password nobody knows (its own hash, so it is no
 * longer a demo account) and its sessions end. The rest are deleted.
 */
export async function removeDemoData(db: Db): Promise<DemoRemoval> {
  return db.transaction(async (tx) => {
    // The seed's lock: no seed or password renewal runs beside the removal.
    await tx.execute(sql`select pg_advisory_xact_lock(4242)`);
    const accounts = await findDemoAccounts(tx);
    const demoIds = accounts.map((account) => account.id);
    const notDemo = (column: AnyPgColumn) => (demoIds.length > 0 ? notInArray(column, demoIds) : sql`true`);

    const candidates = (await tx.select({ id: groups.id, name: groups.name, code: groups.code }).from(groups).orderBy(groups.id)).filter(
      (group) => DEMO_GROUPS.some((demo) => demo.code === group.code && demo.name === group.name),
    );
    const removable: typeof candidates = [];
    const kept: typeof candidates = [];
    for (const group of candidates) {
      const [realMember] = await tx
        .select({ id: memberships.id })
        .from(memberships)
        .where(and(eq(memberships.groupId, group.id), notDemo(memberships.userId)))
        .limit(1);
      const [realOrder] = await tx
        .select({ id: orders.id })
        .from(orders)
        .where(and(eq(orders.groupId, group.id), sql`not ${seedOrder}`))
        .limit(1);
      const [realPayout] = await tx
        .select({ id: payouts.id })
        .from(payouts)
        .where(
          and(
            eq(payouts.groupId, group.id),
            or(and(isNotNull(payouts.createdBy), notDemo(payouts.createdBy)), and(isNotNull(payouts.paidBy), notDemo(payouts.paidBy))),
          ),
        )
        .limit(1);
      (realMember || realOrder || realPayout ? kept : removable).push(group);
    }

    const groupIds = removable.map((group) => group.id);
    let orderCount = 0;
    let payoutCount = 0;
    if (groupIds.length > 0) {
      // Orders first (their lines go with them), then the payouts those lines were settled in.
      orderCount = (await tx.delete(orders).where(inArray(orders.groupId, groupIds)).returning({ id: orders.id })).length;
      payoutCount = (await tx.delete(payouts).where(inArray(payouts.groupId, groupIds)).returning({ id: payouts.id })).length;
      await tx.delete(groups).where(inArray(groups.id, groupIds));
    }

    const removedAccounts: string[] = [];
    const lockedAccounts: string[] = [];
    for (const account of accounts) {
      if (await stillNeeded(tx, account.id)) {
        // Its own hash of a password nobody is told: the account is no longer the demo's.
        await tx
          .update(users)
          .set({
            passwordHash: await hashPassword(crypto.randomBytes(24).toString('base64url')),
            tokenVersion: sql`${users.tokenVersion} + 1`,
            endedSessions: [],
          })
          .where(eq(users.id, account.id));
        await tx.delete(refreshTokens).where(eq(refreshTokens.userId, account.id));
        lockedAccounts.push(account.email);
      } else {
        await tx.delete(users).where(eq(users.id, account.id));
        removedAccounts.push(account.email);
      }
    }

    // The seed's products: its SKUs without a Shopify id. Order lines keep their title when a product goes.
    const productCount = (
      await tx
        .delete(products)
        .where(
          and(
            sql`${products.shopifyProductId} is null`,
            inArray(products.sku, [...DEMO_PRODUCTS_BY_SKU.keys()]),
            inArray(products.title, [...DEMO_PRODUCTS_BY_SKU.values()]),
          ),
        )
        .returning({ id: products.id })
    ).length;

    const removal: DemoRemoval = {
      removedAccounts,
      lockedAccounts,
      removedGroups: removable.map((group) => group.name),
      keptGroups: kept.map((group) => group.name),
      orders: orderCount,
      payouts: payoutCount,
      products: productCount,
    };
    if (accounts.length + candidates.length + productCount > 0) {
      await writeAudit(tx, {
        actorUserId: null,
        action: 'demo.remove',
        targetType: 'demo_data',
        targetId: null,
        details: {
          removedAccounts: removedAccounts.length,
          lockedAccounts: lockedAccounts.length,
          removedGroups: removable.length,
          keptGroups: kept.length,
          orders: orderCount,
          payouts: payoutCount,
          products: productCount,
        },
      });
    }
    return removal;
  });
}

/** A demo account that a kept group's membership, or a kept payout, still points at. */
async function stillNeeded(tx: Tx, userId: number): Promise<boolean> {
  const [membership] = await tx.select({ id: memberships.id }).from(memberships).where(eq(memberships.userId, userId)).limit(1);
  const [payout] = await tx
    .select({ id: payouts.id })
    .from(payouts)
    .where(or(eq(payouts.createdBy, userId), eq(payouts.paidBy, userId)))
    .limit(1);
  return Boolean(membership || payout);
}
